/**
 * Profile data is whatever the client sent: a header or a body may hold escape
 * sequences that would restyle or rewrite the user's terminal. Every value a
 * text renderer prints passes through one of these, as HTML goes through escapeHtml.
 */
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;
const CONTROL_BUT_NEWLINE = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(c: string): string {
  return NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/** One line: every control character shown as an escape (`\n`, `\x1b`). */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, visible);
}

/** Several lines (a body): line breaks kept, tabs as two spaces, other controls escaped. */
export function terminalSafeBlock(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ').replace(CONTROL_BUT_NEWLINE, visible);
}
