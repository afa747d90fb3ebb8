import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { lineDiff } from './line-diff.js';

export const SNAPSHOT_EXTENSION = '.snap.txt';

export type SnapshotState = 'written' | 'passed' | 'updated' | 'failed' | 'missing';

export interface SnapshotCheck {
  state: SnapshotState;
  /** set when failed: stored lines `-`, actual lines `+` */
  diff?: string;
}

/** What the environment asks for: `UPDATE_SNAPSHOTS=1` rewrites, `CI=true` forbids writing new ones. */
export function snapshotModeFromEnv(env: NodeJS.ProcessEnv): { update: boolean; ci: boolean } {
  const on = (value: string | undefined) => value === '1' || value === 'true';
  return { update: on(env.UPDATE_SNAPSHOTS), ci: on(env.CI) };
}

/**
 * Compares `actual` with the stored file, or writes it: a new file is written unless `ci`
 * (even with `update`: CI never accepts a snapshot nobody has read); a different one fails unless `update`. Line endings are compared as `\n`.
 */
export function checkSnapshotFile(
  file: string,
  actual: string,
  options: { update: boolean; ci: boolean; label?: string },
): SnapshotCheck {
  const text = actual.endsWith('\n') || actual === '' ? actual : `${actual}\n`;
  if (!existsSync(file)) {
    if (options.ci) return { state: 'missing' };
    write(file, text);
    return { state: 'written' };
  }
  const stored = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  if (stored === text) return { state: 'passed' };
  if (options.update) {
    write(file, text);
    return { state: 'updated' };
  }
  return { state: 'failed', diff: lineDiff(stored, text, { labels: [`${file} (stored)`, options.label ?? 'actual'] }) };
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
