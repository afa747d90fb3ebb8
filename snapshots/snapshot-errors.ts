import { AppError } from '../core/errors.js';

/**
 * Keeps the stack's first line to the summary: test runners print the message (with the
 * diff) and then the stack, and would otherwise print the diff twice.
 */
function shortenStack(error: Error, summary: string): void {
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  error.stack = [`${error.name}: ${summary}`, ...frames].join('\n');
}

/** A stored snapshot differs from the page: `diff` shows stored lines as `-`, the page's as `+`. */
export class SnapshotMismatchError extends AppError {
  override name = 'SnapshotMismatchError';
  /** shown by uvu beside the message */
  readonly operator = 'matchSnapshot';
  constructor(
    readonly snapshot: string,
    readonly file: string,
    readonly diff: string,
  ) {
    const summary = `Snapshot "${snapshot}" does not match ${file}. If the change is intended, run again with UPDATE_SNAPSHOTS=1.`;
    super('APP_ERR_SNAPSHOT_MISMATCH', `${summary}\n${diff}`);
    shortenStack(this, summary);
  }
}

/** With CI=true a missing snapshot is an error: it would otherwise be written and pass unseen. */
export class SnapshotMissingError extends AppError {
  override name = 'SnapshotMissingError';
  constructor(
    readonly snapshot: string,
    readonly file: string,
  ) {
    super(
      'APP_ERR_SNAPSHOT_MISSING',
      `Snapshot "${snapshot}" is missing (${file}) and CI=true forbids writing it: run the tests once without CI, review the file it writes, and commit it.`,
    );
  }
}
