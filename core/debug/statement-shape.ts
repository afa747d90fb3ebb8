/** A statement run at least this many times from one place in one request is a repeated query (an N+1). */
export const REPEATED_QUERY_MIN = 5;

const LITERALS = /'(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|\$\d+|\?|\b\d+(?:\.\d+)?\b/g;

/**
 * A statement's shape: its text with every literal and placeholder a `?` and its spacing collapsed,
 * so that `WHERE id = 1` and `WHERE id = 2` (mysql2 inlines values) or `$1` with different values
 * are one statement; a list `IN (?, ?, ?)` is `IN (?)` whatever its length.
 */
export function statementShape(sql: string): string {
  return sql
    .replace(LITERALS, '?')
    .replace(/\s+/g, ' ')
    .replace(/\(\s*\?(?:\s*,\s*\?)*\s*\)/g, '(?)')
    .trim();
}

/** The key of "the same statement from the same place": null when the place is unknown. */
export function repeatKey(shape: string, frame: { file: string | null; line: number | null } | null): string | null {
  return frame === null || frame.file === null ? null : `${frame.file}:${frame.line ?? ''}\n${shape}`;
}
