import { readFileSync } from 'node:fs';

/** The connection cap when none is given, if the open-file limit leaves room for it. */
export const MAX_CONNECTIONS = 1024;

/**
 * The default cap on open connections: MAX_CONNECTIONS, or less when the process's
 * open-file limit is low, keeping a quarter of it (at least 64 descriptors) for the
 * profile store, the app's own files and sockets, and the file watcher.
 */
export function defaultMaxConnections(openFileLimit: number | null = readOpenFileLimit()): number {
  if (openFileLimit === null) return MAX_CONNECTIONS;
  return Math.max(8, Math.min(MAX_CONNECTIONS, openFileLimit - Math.max(64, Math.floor(openFileLimit / 4))));
}

/** The soft RLIMIT_NOFILE from /proc/self/limits; null where there is none to read (not Linux) or it is unlimited. */
export function readOpenFileLimit(limitsText?: string): number | null {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return null;
    }
  }
  const m = /^Max open files\s+(\d+)/m.exec(text);
  return m ? Number(m[1]) : null;
}
