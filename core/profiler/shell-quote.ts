/**
 * Characters a terminal or a shell may act on rather than print: C0 controls, DEL, C1 controls,
 * the line and paragraph separators, and the bidirectional overrides that reorder what is shown.
 */
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\', "'": "\\'" };

/** The UTF-8 bytes of `char` as \xHH escapes: bash turns them back into the same bytes whatever the locale. */
function hexBytes(char: string): string {
  return [...Buffer.from(char, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
}

/**
 * One shell word that bash and sh read back as `text`. Plain printable text stays in single
 * quotes; anything else becomes ANSI-C quoting ($'…') where every control byte, C1, DEL,
 * backslash and single quote is escaped, so the output never holds a raw control byte.
 */
export function shellQuote(text: string): string {
  if (!UNSAFE.test(text) && !text.includes("'")) return `'${text}'`;
  return `$'${text.replace(/[\\']/g, (c) => NAMED[c]).replace(UNSAFE_ALL, (c) => NAMED[c] ?? hexBytes(c))}'`;
}

/** `text` with the characters a terminal acts on shown as escapes (\n, \x1b): safe on one line of output. */
export function showControls(text: string): string {
  return text.replace(UNSAFE_ALL, (c) => NAMED[c] ?? hexBytes(c));
}
