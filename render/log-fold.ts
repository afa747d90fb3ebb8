import type { LogRecord } from '../core/profiler/profile.js';

/** The kernel's record of each listener call: most of a log, and rarely what a reader looks for. */
export const EVENT_CHANNEL = 'event';

/** A record the quiet views fold behind a count: the `event` channel's DEBUG records. */
export function isFoldedRecord(record: LogRecord): boolean {
  return record.channel === EVENT_CHANNEL && record.level === 'DEBUG';
}

/** The records a quiet view shows (in their order) and those it folds. */
export function foldLog(records: readonly LogRecord[]): { shown: LogRecord[]; folded: LogRecord[] } {
  const shown: LogRecord[] = [];
  const folded: LogRecord[] = [];
  for (const record of records) (isFoldedRecord(record) ? folded : shown).push(record);
  return { shown, folded };
}
