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

const knownJson = new WeakMap<object, string>();

/** Serialises `value` now, once: an entry recorded by every request (the configuration) costs its JSON text only once. */
export function serialiseOnce<T extends object>(value: T): T {
  knownJson.set(value, JSON.stringify(value));
  return value;
}

/**
 * A request's entries as one JSON object text (collector name -> records), each record given to
 * serialiseOnce() written from its text. Throws as JSON.stringify does (a cycle, a BigInt).
 */
export function entriesJson(entries: RequestEntries): string {
  let text = '{';
  for (const [name, list] of entries) {
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(name)}:[`;
    for (let i = 0; i < list.length; i++) {
      const value = list[i];
      text += (i > 0 ? ',' : '') + ((typeof value === 'object' && value !== null && knownJson.get(value)) || (JSON.stringify(value) ?? 'null'));
    }
    text += ']';
  }
  return `${text}}`;
}
