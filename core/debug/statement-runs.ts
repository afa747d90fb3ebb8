import type { StackHolder } from './app-frame.js';
import type { RequestRecorder } from './request-scope.js';

/**
 * How many runs of one statement (its exact text) in each step of a request (a listener's call, the
 * controller: RequestRecorder.step) have their stack taken, unless `app serve --query-stacks` says
 * otherwise. Taking a stack is most of what recording a query costs (database-query.ts captureStack:
 * V8 rebuilds each optimized frame it walks); a statement run again in the same step, the loop of an
 * N+1, is assumed to run from where its last run whose stack was taken did.
 */
export const STACKED_RUNS = 1;

/** One statement's runs so far in one request. */
export class StatementRuns {
  count = 0;
  /** whether the run just counted has its stack taken, into `stack` */
  takesStack = false;
  /** the stack of the last run that takes one (captureStack fills it): a later run is assumed to come from its place */
  stack: StackHolder | null = null;
  /** the step of the request (RequestRecorder.step) its last run was counted in, and its runs in that step */
  step = -1;
  runsInStep = 0;
}

const byRequest = new WeakMap<RequestRecorder, Map<string, StatementRuns>>();
/** The request and statement counted last: the loop of an N+1 counts one statement in one request again and again. */
let lastRecorder: RequestRecorder | null = null;
let lastStatements: Map<string, StatementRuns> | null = null;
let lastSql = '';
let lastRuns: StatementRuns | null = null;

function runsOf(recorder: RequestRecorder, sql: string): StatementRuns {
  if (recorder === lastRecorder && sql === lastSql && lastRuns !== null) return lastRuns;
  let statements = recorder === lastRecorder ? lastStatements : byRequest.get(recorder);
  if (statements == null) byRequest.set(recorder, (statements = new Map()));
  let runs = statements.get(sql);
  if (runs === undefined) statements.set(sql, (runs = new StatementRuns()));
  lastRecorder = recorder;
  lastStatements = statements;
  lastSql = sql;
  lastRuns = runs;
  return runs;
}

/** Counts one more run of `sql` in `recorder`'s request; its runs so far. The first `stackedRuns` of each step take their stack. */
export function countRun(recorder: RequestRecorder, sql: string, stackedRuns = STACKED_RUNS): StatementRuns {
  const runs = runsOf(recorder, sql);
  const step = recorder.step?.() ?? 0;
  if (step !== runs.step) {
    runs.step = step;
    runs.runsInStep = 0;
  }
  runs.count++;
  runs.takesStack = ++runs.runsInStep <= stackedRuns;
  if (runs.takesStack) runs.stack = {};
  return runs;
}
