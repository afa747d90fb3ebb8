/** A request's app entries (RequestTrace.addEntry), by collector name. */
export type AppEntries = ReadonlyMap<string, readonly unknown[]>;

/** The records the app's code made for `collector` during the request (empty when none). */
export function appEntries(entries: AppEntries, collector: string): readonly unknown[] {
  return entries.get(collector) ?? [];
}

/** Every collector name the app's code recorded under. */
export function appEntryNames(entries: AppEntries): string[] {
  return [...entries.keys()];
}
