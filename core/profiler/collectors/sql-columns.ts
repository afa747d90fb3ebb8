import type { SqlToken } from './sql-tokens.js';

const COMPARED = /([A-Za-z_][\w$]*)[`"\]]?\s*(?:=|<>|!=|\bI?LIKE\b)\s*$/i;
const INSERT = /\binsert\s+into\s+[^(]*\(([^)]*)\)\s*values\s*\(/gi;

/**
 * The column each literal or placeholder is compared to or stored in (`password = $1`, `SET token = ?`,
 * `INSERT INTO t (email, password) VALUES ($1, $2), ($3, $4)`), by the token's index; null when none is named.
 */
export function tokenColumns(sql: string, tokens: readonly SqlToken[]): (string | null)[] {
  const columns = tokens.map(
    (token) => COMPARED.exec(sql.slice(Math.max(0, token.start - 120), token.start))?.[1] ?? null,
  );
  for (const insert of sql.matchAll(INSERT)) {
    const names = insert[1].split(',').map((name) => name.trim().replace(/^[`"[]|[`"\]]$/g, ''));
    let at = insert.index + insert[0].length;
    let position = 0;
    // 0 inside a row's parentheses, -1 between rows
    let depth = 0;
    walk: for (let t = 0; t < tokens.length; t++) {
      const token = tokens[t];
      if (token.start < at) continue;
      for (let i = at; i < token.start; i++) {
        const c = sql[i];
        if (c === '(' && ++depth === 0) position = 0;
        else if (c === ')') depth--;
        else if (c === ',' && depth === 0) position++;
        else if (depth < 0 && /[A-Za-z]/.test(c)) break walk;
      }
      if (depth === 0) columns[t] ??= names[position] ?? null;
      at = token.end;
    }
  }
  return columns;
}
