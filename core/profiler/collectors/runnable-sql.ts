import { sqlTokens } from './sql-tokens.js';

/** The statement with each placeholder replaced by its parameter, quoted as the driver would send it inline. */
export function runnableSql(driver: 'pg' | 'mysql2', sql: string, params: readonly unknown[]): string {
  const quote = driver === 'pg' ? pgLiteral : mysqlLiteral;
  let text = '';
  let at = 0;
  for (const token of sqlTokens(sql, driver)) {
    if (token.kind !== 'param' || token.param >= params.length) continue;
    text += sql.slice(at, token.start) + quote(params[token.param]);
    at = token.end;
  }
  return text + sql.slice(at);
}

/** pg's escapeLiteral: quotes doubled; with a backslash, backslashes doubled and the E'' form. */
function pgLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `'${value}'`;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (Array.isArray(value)) return `ARRAY[${value.map(pgLiteral).join(', ')}]`;
  const text = String(value);
  const quoted = `'${text.replace(/'/g, "''")}'`;
  return text.includes('\\') ? ` E${quoted.replace(/\\/g, '\\\\')}` : quoted;
}

const MYSQL_ESCAPES: Record<string, string> = {
  '\0': '\\0',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\x1a': '\\Z',
  '"': '\\"',
  "'": "\\'",
  '\\': '\\\\',
};

/** mysql2's own escaping (sqlstring): backslash escapes in single quotes; a list as its items; true and false as words. */
function mysqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : `'${value}'`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return value.map(mysqlLiteral).join(', ');
  return `'${String(value).replace(/[\0\b\t\n\r\x1a"'\\]/g, (c) => MYSQL_ESCAPES[c])}'`;
}
