import type { TextOptions } from '../render/text/text-options.js';

/** Where a command writes: data to `out`, messages to `err`; colour decided once. */
export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
  color: boolean;
  /** the same decision for stderr, where `app serve` logs its requests */
  errColor: boolean;
  /** set by a command that fails without throwing (e.g. "differs": 1) */
  exitCode: number;
  /** the width tables are fitted to (see terminalColumns); no limit when absent */
  columns?: number;
  /** the width commander fits help to; when absent, commander's own: the terminal's, else 80 */
  helpWidth?: number;
  /** calls `listener` once the reader of `out` has gone away (`| head -1` exited), so a command that runs until stopped stops then */
  onOutClosed?: (listener: () => void) => void;
}

/** Without a terminal to ask (output piped or redirected), nor COLUMNS, tables fit this many columns. */
export const DEFAULT_COLUMNS = 100;

/** The terminal's width: what the terminal says, else the COLUMNS variable, else DEFAULT_COLUMNS. */
export function terminalColumns(ttyColumns: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (ttyColumns && ttyColumns > 0) return ttyColumns;
  const fromEnv = Number(env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_COLUMNS;
}

/** The text renderers' options for this output: its colour, and its width unless `--wide`. */
export function textOptions(output: Output, wide = false): TextOptions {
  const now = Date.now();
  return wide || output.columns === undefined
    ? { color: output.color, now }
    : { color: output.color, width: output.columns, now };
}

export function processOutput(): Output {
  const colorAllowed = !process.env.NO_COLOR && process.env.TERM !== 'dumb';
  const color = !!process.stdout.isTTY && colorAllowed;
  return {
    out: writer(process.stdout),
    onOutClosed: (listener) => void process.stdout.once('error', listener),
    err: writer(process.stderr),
    color,
    errColor: !!process.stderr.isTTY && colorAllowed,
    exitCode: 0,
    columns: terminalColumns(process.stdout.columns),
  };
}

const writers = new WeakMap<NodeJS.WriteStream, (text: string) => void>();

/**
 * Writes to the stream until it fails, then drops what follows. A reader that went away
 * (`app serve 2>&1 | head -3` once head exits) makes every write fail with EPIPE; unhandled,
 * that error was an uncaught exception, whose report to the same stream failed again, and so
 * on forever: a server spinning one core and deaf to SIGTERM. It now serves on, silent.
 */
function writer(stream: NodeJS.WriteStream): (text: string) => void {
  const known = writers.get(stream);
  if (known) return known;
  let broken = false;
  stream.on('error', () => {
    broken = true;
  });
  const write = (text: string): void => {
    if (!broken) stream.write(text);
  };
  writers.set(stream, write);
  return write;
}
