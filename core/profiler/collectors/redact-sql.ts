import { looksSecret, REDACTED, redactText, type SecretValues } from '../../redaction/index.js';
import { sqlTokens, literalText } from './sql-tokens.js';
import { tokenColumns } from './sql-columns.js';

export interface RedactedQuery {
  sql: string;
  params: unknown[];
  /** what was redacted, for the panel: "$2 (password)", "a literal (token)", … */
  redacted: string[];
}

/**
 * A query's statement and parameters as they may be stored: a parameter or string literal stored in
 * or compared to a column named like a secret (`password = $1`) is replaced whole; one holding a
 * value this request already showed to be secret, or a credential of a known format, has it replaced;
 * a literal repeating a redacted parameter (mysql2 inlines them into its statement) is replaced too.
 */
export function redactQuery(
  driver: 'pg' | 'mysql2',
  sql: string,
  params: readonly unknown[],
  secrets: SecretValues,
): RedactedQuery {
  const tokens = sqlTokens(sql, driver);
  const columns = tokenColumns(sql, tokens);
  const redacted: string[] = [];
  const secretParams = new Set<number>();
  tokens.forEach((token, t) => {
    if (token.kind === 'param' && columns[t] !== null && looksSecret(columns[t]!)) secretParams.add(token.param);
  });
  const hidden = new Set<string>();
  const cleanParams = params.map((value, i) => {
    const name = driver === 'pg' ? `$${i + 1}` : `parameter ${i + 1}`;
    if (value === null || value === undefined) return null;
    if (secretParams.has(i)) {
      hidden.add(String(value));
      redacted.push(name);
      return REDACTED;
    }
    if (typeof value !== 'string') return value;
    const clean = secrets.scrub(redactText(value));
    if (clean !== value) {
      hidden.add(value);
      redacted.push(name);
    }
    return clean;
  });
  let text = '';
  let at = 0;
  tokens.forEach((token, t) => {
    if (token.kind !== 'literal') return;
    const value = literalText(sql, token);
    const column = columns[t];
    const secret =
      (column !== null && looksSecret(column)) || hidden.has(value) || secrets.scrub(redactText(value)) !== value;
    if (!secret) return;
    text += `${sql.slice(at, token.start)}'${REDACTED}'`;
    at = token.end;
    redacted.push(column !== null ? `a literal (${column})` : 'a literal');
  });
  text += sql.slice(at);
  return { sql: secrets.scrub(text), params: cleanParams, redacted };
}
