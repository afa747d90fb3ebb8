import { existsSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT_EXTENSION = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/**
 * Where a file's source lives: tests run compiled from `dist/tests/...`, their snapshots belong
 * beside `tests/...`. The last `dist` folder is dropped when the folder it leads to exists.
 */
export function sourceDirOf(file: string): string {
  const dir = dirname(file);
  const marker = `${sep}dist${sep}`;
  const at = `${dir}${sep}`.lastIndexOf(marker);
  if (at === -1) return dir;
  const mapped = join(dir.slice(0, at), dir.slice(at + marker.length));
  return existsSync(mapped) ? mapped : dir;
}

/** `outline.test.ts` and `outline.test.js` both name the suite `outline`. */
export function suiteNameOf(file: string): string {
  return basename(file)
    .replace(SCRIPT_EXTENSION, '')
    .replace(/\.(?:test|spec)$/, '');
}

/** The files named by a stack trace, innermost call first (`file://` URLs turned into paths). */
export function stackFiles(stack: string): string[] {
  const files: string[] = [];
  for (const line of stack.split('\n')) {
    const m = /^\s+at (?:.*\()?((?:file:\/\/)?(?:\/|[A-Za-z]:[\\/])[^()]*?):\d+:\d+\)?$/.exec(line);
    if (m) files.push(m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!);
  }
  return files;
}

/**
 * The file that called `entry` (the harness's public function): V8 cuts the stack at `entry`, so
 * the first frame left is the caller's, source-mapped or not. Falls back to `process.argv[1]`.
 */
export function callerFile(entry: (...args: never[]) => unknown): string | null {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 10;
  Error.captureStackTrace(holder, entry);
  Error.stackTraceLimit = limit;
  return stackFiles(holder.stack ?? '')[0] ?? process.argv[1] ?? null;
}
