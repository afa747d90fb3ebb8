import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Normaliser } from './normalise.js';
import { outline, type OutlineOptions } from './outline.js';
import { callerFile, sourceDirOf, suiteNameOf } from './caller-source.js';
import { SnapshotMismatchError, SnapshotMissingError } from './snapshot-errors.js';
import { checkSnapshotFile, SNAPSHOT_EXTENSION, snapshotModeFromEnv } from './snapshot-file.js';

export interface MatchSnapshotOptions extends Pick<OutlineOptions, 'select' | 'keepClass' | 'maxText'> {
  /** the snapshot folder (default: `__snapshots__` beside the calling test's source file) */
  dir?: string;
  /** replace the default normalisers */
  normalisers?: Normaliser[];
  /** the app root, shown as `<ROOT>` (default: the working directory) */
  root?: string;
  /** rewrite a differing snapshot (default: UPDATE_SNAPSHOTS=1) */
  update?: boolean;
  /** refuse to write a missing snapshot (default: CI=true) */
  ci?: boolean;
}

/** Snapshot files matched in this process, for reportUnusedSnapshots. */
const used = new Set<string>();

interface Suite {
  dir: string;
  suite: string;
}

function resolveSuite(dir: string | undefined, entry: (...args: never[]) => unknown): Suite {
  const caller = callerFile(entry);
  if (!caller && !dir) throw new TypeError('matchSnapshot cannot tell which test file called it: pass options.dir.');
  return {
    dir: resolve(dir ?? join(sourceDirOf(caller!), '__snapshots__')),
    suite: caller ? suiteNameOf(caller) : 'snapshot',
  };
}

/** Relative to the working directory when inside it, else absolute. */
function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

/** `404 page` → `404-page`: letters, digits, `.`, `_` and `-` only, so a name can never leave the folder. */
export function snapshotName(name: string): string {
  const safe = name
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '');
  if (!safe) throw new TypeError(`Invalid snapshot name ${JSON.stringify(name)}: use letters, digits, "-" or "_".`);
  return safe;
}

/**
 * Checks the page's outline against `<suite>.<name>.snap.txt` in the snapshot folder. The first
 * run writes it (review it by eye once); later runs throw SnapshotMismatchError with a line diff;
 * UPDATE_SNAPSHOTS=1 rewrites; with CI=true a missing snapshot throws SnapshotMissingError.
 */
export function matchSnapshot(name: string, html: string, options: MatchSnapshotOptions = {}): void {
  const { dir, suite } = resolveSuite(options.dir, matchSnapshot);
  const file = join(dir, `${suite}.${snapshotName(name)}${SNAPSHOT_EXTENSION}`);
  used.add(file);
  const mode = snapshotModeFromEnv(process.env);
  const actual = outline(html, {
    normalisers: options.normalisers,
    root: options.root ?? process.cwd(),
    select: options.select,
    keepClass: options.keepClass,
    maxText: options.maxText,
  });
  const shown = displayPath(file);
  const result = checkSnapshotFile(file, actual, {
    update: options.update ?? mode.update,
    ci: options.ci ?? mode.ci,
    label: `"${name}" now`,
  });
  if (result.state === 'missing') throw new SnapshotMissingError(name, shown);
  if (result.state === 'failed') throw new SnapshotMismatchError(name, shown, result.diff ?? '');
  if (result.state === 'written' || result.state === 'updated')
    process.stderr.write(`snapshot ${result.state}: ${shown} (review it before committing)\n`);
}

/** Snapshot files of `suite` in `dir` that are not in `usedFiles` (absolute paths). */
export function findUnusedSnapshots(dir: string, usedFiles: ReadonlySet<string>, suite?: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(SNAPSHOT_EXTENSION) && (suite === undefined || n.startsWith(`${suite}.`)))
    .map((n) => join(resolve(dir), n))
    .filter((f) => !usedFiles.has(f))
    .sort();
}

/**
 * Call once after a suite (`test.after(() => reportUnusedSnapshots())`): warns about each snapshot
 * file of the calling suite that no matchSnapshot used in this process, and returns them.
 */
export function reportUnusedSnapshots(options: { dir?: string; warn?: (line: string) => void } = {}): string[] {
  const { dir, suite } = resolveSuite(options.dir, reportUnusedSnapshots);
  const unused = findUnusedSnapshots(dir, used, suite);
  const warn = options.warn ?? ((line: string) => void process.stderr.write(`${line}\n`));
  for (const file of unused)
    warn(`warning: unused snapshot ${displayPath(file)}: no test matched it; delete it if its test is gone.`);
  return unused;
}
