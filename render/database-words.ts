import type { DatabaseData, DatabaseQueryData, RepeatedQueryData } from '../core/profiler/profile.js';
import { formatMs, plural } from './format.js';

/** The words the page and the terminal share for the Database panel. */
export const NO_QUERIES = 'No database queries were run.';
export const RUNNABLE_REDACTED_NOTE =
  'Values shown as [REDACTED] were redacted before storage: put the real value back to run it.';

export function databaseSummary(data: DatabaseData): string {
  return (
    `${plural(data.queries.length, 'query', 'queries')}, ${formatMs(data.totalTime)} in all, ${plural(data.groups.length, 'distinct statement')}` +
    (data.errors ? `, ${data.errors} failed` : '') +
    (data.slowMs != null ? `, ${data.slow} slow (${formatMs(data.slowMs)} or more)` : '')
  );
}

/** Said once under the queries when a place is marked as assumed. */
export const ASSUMED_PLACE_NOTE =
  'A statement run again in one step of a request (a listener, the controller) has its stack taken on its first run only (app serve --query-stacks): the places marked (assumed) are where the last run whose stack was taken came from.';

/** " (assumed)" after the place of a query whose stack was not taken. */
export function assumedMark(query: DatabaseQueryData): string {
  return query.frameAssumed === true && query.frame != null ? ' (assumed)' : '';
}

/** "file:line (function)", or "an unknown place". */
export function framePlace(frame: DatabaseQueryData['frame']): string {
  if (frame == null || frame.file == null) return 'an unknown place';
  return `${frame.file}${frame.line == null ? '' : `:${frame.line}`} (${frame.function})`;
}

export function repeatedWarning(repeat: RepeatedQueryData): string {
  return `Repeated query: run ${repeat.count} times from ${framePlace(repeat.frame)}, ${formatMs(repeat.totalTime)} in all`;
}

/** "localhost:5432/app as alice" */
export function targetText(query: DatabaseQueryData): string {
  const { host, port, name, user } = query.database ?? {};
  return `${query.driver} ${host ?? '?'}${port == null ? '' : `:${port}`}${name == null ? '' : `/${name}`}${user == null ? '' : ` as ${user}`}`;
}
