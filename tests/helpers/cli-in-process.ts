import { terminalColumns } from '../../cli/output.js';

export interface InProcessOptions {
  /** the folder the command runs in (process.chdir for the call) */
  cwd?: string;
  /** variables set for the call, restored after it */
  env?: Record<string, string>;
  /** the width tables are fitted to; not fitted when absent */
  columns?: number;
}

/** what a command printed and its exit code, as runApp (cli.ts) returns them for the real bin */
export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI in this process with a captured output (no colour): as the bin does, minus the
 * process start, for tests that check what a command prints. The working folder, the variables
 * and the process's listeners are process-wide, so calls run one at a time and each restores them.
 */
export function runCliInProcess(args: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const run = queue.then(() => runAlone(args, options));
  queue = run.catch(() => {});
  return run;
}

/**
 * runCliInProcess as `runApp` runs the bin: NO_COLOR set, and tables fitted to $COLUMNS or the 100
 * columns a piped bin fits.
 */
export function runAppInProcess(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<InProcessResult> {
  const env = { NO_COLOR: '1', ...options.env };
  return runCliInProcess(args, { ...options, env, columns: terminalColumns(undefined, { ...process.env, ...env }) });
}

async function runAlone(args: string[], options: InProcessOptions): Promise<InProcessResult> {
  const { runCli } = await import('../../cli/main.js');
  let stdout = '';
  let stderr = '';
  const output = {
    out: (text: string) => void (stdout += text),
    err: (text: string) => void (stderr += text),
    color: false,
    errColor: false,
    exitCode: 0,
    columns: options.columns,
    // help as the piped bin prints it, whatever the test's own output is
    helpWidth: 80,
  };
  const restore = changeProcess(options);
  try {
    const code = await runCli(['node', 'app', ...args], output);
    return { code, stdout, stderr };
  } finally {
    restore();
  }
}

/**
 * What a command may add to the process (`app serve`, `profiles tail`): removed after the call. A
 * module the command loads may add listeners of its own, for the rest of the process: those stay.
 */
const COMMAND_EVENTS = ['SIGINT', 'SIGTERM', 'uncaughtException', 'unhandledRejection'] as const;

/** Applies the call's folder and variables; returns what puts them back, with the exit code and the command's listeners. */
function changeProcess(options: InProcessOptions): () => void {
  const cwd = process.cwd();
  const exitCode = process.exitCode;
  const listeners = new Map(COMMAND_EVENTS.map((name) => [name, process.listeners(name as 'exit')]));
  const saved = Object.entries(options.env ?? {}).map(([key, value]) => {
    const before = process.env[key];
    process.env[key] = value;
    return [key, before] as const;
  });
  if (options.cwd !== undefined) process.chdir(options.cwd);
  return () => {
    process.chdir(cwd);
    for (const [key, before] of saved.reverse()) {
      if (before === undefined) delete process.env[key];
      else process.env[key] = before;
    }
    process.exitCode = exitCode;
    for (const [name, kept] of listeners) {
      for (const listener of process.listeners(name as 'exit'))
        if (!kept.includes(listener)) process.removeListener(name as 'exit', listener);
    }
  };
}
