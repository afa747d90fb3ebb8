/** How queries are recorded: the app's root (its frames' files are shown relative to it) and the slow-query threshold. */
export interface DatabaseCaptureSettings {
  root: string;
  /** ms: a query at least this long is marked slow; null: none is */
  slowQueryMs: number | null;
  /** how many runs of one statement in one request have their stack taken (statement-runs.ts); default 3, Infinity: every run */
  stackedRuns?: number;
}

let current: DatabaseCaptureSettings | null = null;

/** The settings while queries are recorded; null when the Database panel is off. */
export function databaseCaptureSettings(): DatabaseCaptureSettings | null {
  return current;
}

export function setDatabaseCaptureSettings(settings: DatabaseCaptureSettings | null): void {
  current = settings;
}
