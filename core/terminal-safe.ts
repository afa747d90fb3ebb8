/**
 * Profile data is whatever the client sent, and log and exception messages quote it: a
 * header, a decoded path or a body may hold escape sequences that would restyle or rewrite
 * the user's terminal (OSC 52 writes the clipboard, OSC 0 the window title, CSI 2J clears the
 * screen, a CR or LF forges a line), and bidi overrides or Unicode line separators reorder or
 * break what it shows. Everything the CLI prints passes through one of these, as HTML goes
 * through escapeHtml. Unsafe: C0 controls, DEL, C1 controls (U+0080-U+009F, which some
 * terminals obey as ESC sequences: U+009B is CSI), U+2028/U+2029, U+202A-U+202E, U+2066-U+2069.
 */
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** UNSAFE without the g flag: test() keeps no lastIndex, and a safe text (nearly every one) is returned without replace()'s copy. */
const ANY_UNSAFE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_BUT_NEWLINE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** JSON.stringify already writes C0 controls as escapes: the rest of UNSAFE is left raw by it. */
const UNSAFE_IN_JSON = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function hex(c: string, digits: number): string {
  return c.charCodeAt(0).toString(16).padStart(digits, '0');
}

/** `\n`, `\x1b`, `\x7f`, `\u009b`, `\u202e`: what a JavaScript string literal would say. */
function visible(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code <= 0x7f ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`);
}

/** One line: every unsafe character shown as an escape (`\n`, `\x1b`, `\u009b`). */
export function terminalSafe(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE, visible) : text;
}

/** Several lines (a body): line breaks kept (a CR becomes one), tabs as two spaces, other unsafe characters escaped. */
export function terminalSafeBlock(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ').replace(UNSAFE_BUT_NEWLINE, visible);
}

/**
 * JSON.stringify(value, null, indent) (0: one line) with DEL, C1, line separators and bidi controls written as
 * `\u0080`-style escapes too: the same JSON for a parser, nothing a terminal obeys.
 */
export function jsonForTerminal(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, (c) => `\\u${hex(c, 4)}`);
}

/**
 * A thrown value for the terminal: its first line (`Error: message`, the message on one line
 * however many line breaks it holds) then its stack frames, one per line.
 */
export function terminalSafeError(error: unknown): string {
  const head = describe(error);
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
  if (!stack.startsWith(head)) return terminalSafe(stack || head);
  return `${terminalSafe(head)}${terminalSafeBlock(stack.slice(head.length))}`;
}

function describe(error: unknown): string {
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
