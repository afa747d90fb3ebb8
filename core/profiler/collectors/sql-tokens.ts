/** A string literal or a placeholder in a statement, by its place in the text. */
export interface SqlToken {
  kind: 'literal' | 'param';
  start: number;
  end: number;
  /** a placeholder's parameter, from 0 ($1 is 0; mysql2's `?` count from the left) */
  param: number;
}

/**
 * The string literals and placeholders of a statement, skipping quoted names and comments: `$n` for
 * pg, `?` for mysql2 (whose strings also take backslash escapes, and double quotes).
 */
export function sqlTokens(sql: string, driver: 'pg' | 'mysql2'): SqlToken[] {
  const tokens: SqlToken[] = [];
  let questionMarks = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || (c === '"' && driver === 'mysql2')) {
      const end = closing(sql, i, c, driver === 'mysql2');
      tokens.push({ kind: 'literal', start: i, end, param: -1 });
      i = end;
    } else if (c === '"' || c === '`') {
      i = closing(sql, i, c, false);
    } else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl === -1 ? sql.length : nl;
    } else if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close === -1 ? sql.length : close + 2;
    } else if (c === '$' && driver === 'pg' && /\d/.test(sql[i + 1] ?? '') && !/[\w$]/.test(sql[i - 1] ?? '')) {
      let end = i + 1;
      while (end < sql.length && sql.charCodeAt(end) >= 48 && sql.charCodeAt(end) <= 57) end++;
      tokens.push({ kind: 'param', start: i, end, param: Number(sql.slice(i + 1, end)) - 1 });
      i = end;
    } else if (c === '?' && driver === 'mysql2') {
      tokens.push({ kind: 'param', start: i, end: i + 1, param: questionMarks++ });
      i++;
    } else {
      i++;
    }
  }
  return tokens;
}

/** Just past the quote closing the one at `from` (a doubled quote stays inside; with `backslash`, so does an escaped one). */
function closing(sql: string, from: number, quote: string, backslash: boolean): number {
  let i = from + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslash && c === '\\') i += 2;
    else if (c === quote && sql[i + 1] === quote) i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return sql.length;
}

/** A literal's text without its quotes and escapes. */
export function literalText(sql: string, token: SqlToken): string {
  const quote = sql[token.start];
  const inner = sql.slice(token.start + 1, Math.max(token.start + 1, token.end - 1));
  return inner
    .split(quote + quote)
    .join(quote)
    .replace(/\\(.)/g, '$1');
}

/** Whether the statement is one statement: no `;` outside its literals, quoted names and comments but a last one. */
export function isSingleStatement(sql: string, driver: 'pg' | 'mysql2'): boolean {
  let code = '';
  let at = 0;
  for (const token of sqlTokens(sql, driver)) {
    if (token.kind !== 'literal') continue;
    code += sql.slice(at, token.start);
    at = token.end;
  }
  code += sql.slice(at);
  const semicolon = withoutCommentsAndNames(code).replace(/;\s*$/, '').indexOf(';');
  return semicolon === -1;
}

function withoutCommentsAndNames(code: string): string {
  return code.replace(/--[^\n]*|\/\*[\s\S]*?(\*\/|$)|"(?:[^"]|"")*"|`[^`]*`/g, ' ');
}
