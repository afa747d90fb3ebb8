import type { AppFrame } from './app-frame.js';
import type { RequestRecorder } from './request-scope.js';

/**
 * How many runs of one statement (its exact text) in one request have their stack taken, unless
 * `app serve --query-stacks` says otherwise. Taking a stack is most of what recording a query costs
 * (database-query.ts captureStack); a statement run again and again, the loop of an N+1, is assumed
 * to run from where the last of these runs did.
 */
export const STACKED_RUNS = 3;

/** One statement's runs so far in one request. */
export class StatementRuns {
  count = 0;
  /** the last run whose stack was taken: a later run is assumed to come from its place */
  stacked: { readonly frame: AppFrame | null } | null = null;

  constructor(private readonly stackedRuns: number) {}

  /** Whether the run just counted has its stack taken. */
  get takesStack(): boolean {
    return this.count <= this.stackedRuns;
  }
}

const byRequest = new WeakMap<RequestRecorder, Map<string, StatementRuns>>();

/** Counts one more run of `sql` in `recorder`'s request; its runs so far, of which the first `stackedRuns` take their stack. */
export function countRun(recorder: RequestRecorder, sql: string, stackedRuns = STACKED_RUNS): StatementRuns {
  let statements = byRequest.get(recorder);
  if (statements === undefined) byRequest.set(recorder, (statements = new Map()));
  let runs = statements.get(sql);
  if (runs === undefined) statements.set(sql, (runs = new StatementRuns(stackedRuns)));
  runs.count++;
  return runs;
}
