/** Where a command writes: data to `out`, messages to `err`; colour decided once. */
export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
  color: boolean;
  /** the same decision for stderr, where `app serve` logs its requests */
  errColor: boolean;
  /** set by a command that fails without throwing (e.g. "differs": 1) */
  exitCode: number;
}

export function processOutput(): Output {
  const colorAllowed = !process.env.NO_COLOR && process.env.TERM !== 'dumb';
  const color = !!process.stdout.isTTY && colorAllowed;
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    color,
    errColor: !!process.stderr.isTTY && colorAllowed,
    exitCode: 0,
  };
}
