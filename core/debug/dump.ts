import { fileURLToPath } from 'node:url';
import { dumpValue, type DumpNode } from './dump-value.js';
import { currentRecorder } from './request-scope.js';

export const DUMP_COLLECTOR = 'dump';

/** One dump() call: where it was made and what it was given. */
export interface DumpEntry {
  /** the caller's file (a path, not a file: URL) and line; null when the stack does not say */
  file: string | null;
  line: number | null;
  /** ms since the request started; null outside a request */
  time: number | null;
  value: DumpNode;
}

let echo: ((entry: DumpEntry) => void) | null = null;

/** Where dump() also prints (`app serve` sets its terminal); null for nowhere. */
export function setDumpEcho(print: ((entry: DumpEntry) => void) | null): void {
  echo = print;
}

/**
 * Records `value` in the dump panel of the request whose code is running (and prints it where
 * `app serve` says); returns it unchanged, so that it can wrap an expression.
 */
export function dump<T>(value: T): T {
  const recorder = currentRecorder();
  if (!recorder && !echo) return value;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, dump);
  const site = callSite(holder.stack ?? '');
  const entry: DumpEntry = {
    file: site.file,
    line: site.line,
    time: recorder ? recorder.elapsed() : null,
    value: dumpValue(value),
  };
  recorder?.add(DUMP_COLLECTOR, entry);
  echo?.(entry);
  return value;
}

const FRAME = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):\d+\)?$/;

/** The first frame of a stack captured from dump()'s caller. */
function callSite(stack: string): { file: string | null; line: number | null } {
  for (const raw of stack.split('\n').slice(1)) {
    const match = FRAME.exec(raw.trim());
    if (!match) continue;
    const location = match[1];
    const file = location.startsWith('file://') ? fileURLToPath(location) : location;
    return { file, line: Number(match[2]) };
  }
  return { file: null, line: null };
}
