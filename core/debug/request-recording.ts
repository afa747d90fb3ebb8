import type { Request } from '../http/request.js';
import type { RequestRecorder } from './request-scope.js';

/** Where a request keeps its app-level records until the hand-off: collector name -> records, in order. */
export const ENTRIES_KEY = 'debug.entries';

export type RequestEntries = Map<string, unknown[]>;

/** The recorder of one request: its records ride in `request.extra` to the profiler's hand-off. */
export function recorderFor(request: Request): RequestRecorder {
  return {
    elapsed: () => request.elapsed(),
    add: (collector, value) => addEntry(request.extra, collector, value),
  };
}

export function addEntry(extra: Map<string, unknown>, collector: string, value: unknown): void {
  let entries = extra.get(ENTRIES_KEY) as RequestEntries | undefined;
  if (!entries) extra.set(ENTRIES_KEY, entries = new Map());
  const list = entries.get(collector);
  if (list) list.push(value);
  else entries.set(collector, [value]);
}

/** The records of `collector` (empty when none). */
export function entriesOf(extra: ReadonlyMap<string, unknown>, collector: string): readonly unknown[] {
  return (extra.get(ENTRIES_KEY) as RequestEntries | undefined)?.get(collector) ?? [];
}
