import { ENTRIES_KEY, type RequestEntries } from '../../debug/request-recording.js';
import type { RequestFacts } from '../request-facts.js';

/** The records the app's code made for `collector` during the request (empty when none). */
export function appEntries(request: RequestFacts, collector: string): readonly unknown[] {
  return (request.extra.get(ENTRIES_KEY) as RequestEntries | undefined)?.get(collector) ?? [];
}

/** Every collector name the app's code recorded under. */
export function appEntryNames(request: RequestFacts): string[] {
  return [...(request.extra.get(ENTRIES_KEY) as RequestEntries | undefined)?.keys() ?? []];
}
