/** The most characters one answer of the MCP server holds: a model's context is not a terminal's scrollback. */
export const ANSWER_LIMIT = 20_000;

/**
 * `text` from `offset`, at most `limit` characters, with a closing note when some was cut that says
 * how much and how to ask for the rest (the same call with `offset`, or a narrower `hint`).
 */
export function boundedText(
  text: string,
  { offset = 0, limit = ANSWER_LIMIT, hint = '' }: { offset?: number; limit?: number; hint?: string } = {},
): string {
  const start = Math.min(Math.max(0, offset), text.length);
  const room = limit - 200 - hint.length;
  if (start === 0 && text.length <= limit) return text;
  const end = Math.min(text.length, start + Math.max(1_000, room));
  const cut = text.slice(start, end);
  const notes: string[] = [];
  if (start > 0) notes.push(`characters ${start} to ${end} of ${text.length} shown`);
  if (end < text.length)
    notes.push(`${text.length - end} more characters cut: call again with offset=${end}${hint ? `, or ${hint}` : ''}`);
  return `${cut}\n\n[${notes.join('; ')}]`;
}
