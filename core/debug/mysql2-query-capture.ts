import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import { databaseCaptureSettings } from './database-capture-settings.js';
import { captureStack, DATABASE_COLLECTOR, QueryRecord, type StackHolder } from './database-query.js';
import { bindRequestScope, currentRecorder, unbindRequestScope, type RequestRecorder } from './request-scope.js';
import { askedStatement } from './mysql2-statements.js';
import { countRun, type StatementRuns } from './statement-runs.js';

/** What mysql2 (3.20 and later) publishes on its `mysql2:query` and `mysql2:execute` TracingChannels. */
interface Mysql2QueryMessage {
  query?: unknown;
  values?: unknown;
  database?: unknown;
  serverAddress?: unknown;
  serverPort?: unknown;
  result?: unknown;
  error?: unknown;
}

const RECORD = Symbol('appkernel.db.query');
/** the stack the query's end fills in: where the app called, taken once mysql2 has sent the query */
const STACK = Symbol('appkernel.db.stack');
const RECORDER = Symbol('appkernel.db.recorder');
const CALLER = Symbol('appkernel.db.caller');

/**
 * A pool's query or execute, as its connection was asked for: its statement's run, counted, and the
 * stack then taken (null: its place is assumed).
 */
interface PoolCall {
  statement: string | undefined;
  runs: StatementRuns | null;
  stack: StackHolder | null;
  /** when its stack is not taken: the stack of its statement's last run that took one */
  assumedFrom: StackHolder | null;
  /** a query has taken this call as its own: others in the same callback are counted apart */
  taken: boolean;
}

type Tagged = Mysql2QueryMessage & {
  [RECORD]?: QueryRecord;
  [STACK]?: StackHolder;
  [RECORDER]?: RequestRecorder;
  [CALLER]?: PoolCall;
};

/** Where the app called the pool: its query starts later, in the pool's callback, where the app's frames are gone. */
const poolCaller = new AsyncLocalStorage<PoolCall | undefined>();

function onStart(message: unknown): void {
  const settings = databaseCaptureSettings();
  const recorder = settings === null ? undefined : currentRecorder();
  if (recorder === undefined || settings === null) return;
  const m = message as Tagged;
  if (typeof m.query !== 'string') return;
  // a statement is counted as the app wrote it, before mysql2 inlined its values
  const statement = askedStatement() ?? m.query;
  // a pool's query: it was counted, and its stack taken, where the app asked the pool for a connection
  const caller = poolCaller.getStore();
  const own = caller !== undefined && !caller.taken && caller.runs !== null && caller.statement === statement;
  if (own) caller.taken = true;
  let stack: StackHolder | null;
  let assumedFrom: StackHolder | null;
  if (own) ({ stack, assumedFrom } = caller);
  else {
    const runs = countRun(recorder, statement, settings.stackedRuns);
    assumedFrom = runs.stack;
    // a query of the pool's callback has its caller's stack, else takes its own once the query is sent (onEnd)
    stack = caller?.stack ?? null;
    if (runs.takesStack) {
      if (stack === null) m[STACK] = stack = runs.stack!;
      else runs.stack = stack;
    }
  }
  const record = new QueryRecord(
    'mysql2',
    recorder.origin,
    performance.now(),
    m.query,
    Array.isArray(m.values) ? m.values : [],
    {
      host: typeof m.serverAddress === 'string' ? m.serverAddress : null,
      port: typeof m.serverPort === 'number' ? m.serverPort : null,
      name: typeof m.database === 'string' && m.database !== '' ? m.database : null,
      user: null,
    },
    settings.root,
    settings.slowQueryMs,
    stack,
    stack === null ? assumedFrom : null,
  );
  m[RECORD] = record;
  recorder.add(DATABASE_COLLECTOR, record);
}

/** The traced call returns (end): the query is on its way, the app's frames still on the stack. */
function onEnd(message: unknown): void {
  const stack = (message as Tagged)[STACK];
  if (stack !== undefined) captureStack(onEnd, stack);
}

/** The callback's turn (asyncStart): the driver's result is known, an error was published before it. */
function onAsyncStart(message: unknown): void {
  const m = message as Tagged;
  const record = m[RECORD];
  if (record === undefined || record.endAt !== null) return;
  record.ended(m.error ? null : rowsOf(m.result), m.error ?? null);
}

function onError(message: unknown): void {
  const m = message as Tagged;
  const record = m[RECORD];
  if (record === undefined || record.endAt !== null) return;
  record.ended(null, m.error);
}

function rowsOf(result: unknown): number | null {
  if (Array.isArray(result)) return result.length;
  const affected = (result as { affectedRows?: unknown } | null | undefined)?.affectedRows;
  return typeof affected === 'number' ? affected : null;
}

function onPoolConnectStart(message: unknown): void {
  const settings = databaseCaptureSettings();
  const recorder = settings === null ? undefined : currentRecorder();
  if (recorder === undefined || settings === null) return;
  (message as Tagged)[RECORDER] = recorder;
  const statement = askedStatement();
  const runs = statement === undefined ? null : countRun(recorder, statement, settings.stackedRuns);
  (message as Tagged)[CALLER] = {
    statement,
    runs,
    stack:
      runs === null
        ? captureStack(onPoolConnectStart)
        : runs.takesStack
          ? captureStack(onPoolConnectStart, runs.stack!)
          : null,
    assumedFrom: runs?.stack ?? null,
    taken: false,
  };
}

type TraceEvent = 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';
type Handlers = Partial<Record<TraceEvent, (message: unknown) => void>>;

// Only the events read are subscribed: an event no one hears costs mysql2 nothing to publish.
const QUERY_HANDLERS: Handlers = { start: onStart, end: onEnd, asyncStart: onAsyncStart, error: onError };
const POOL_HANDLERS: Handlers = { start: onPoolConnectStart };

function hear(channel: diagnostics.TracingChannel, handlers: Handlers, on: boolean): void {
  for (const [event, handler] of Object.entries(handlers) as [TraceEvent, (message: unknown) => void][]) {
    if (on) channel[event].subscribe(handler);
    else channel[event].unsubscribe(handler);
  }
}

const queryChannels = ['mysql2:query', 'mysql2:execute'].map((name) => diagnostics.tracingChannel(name));
const poolConnect = diagnostics.tracingChannel('mysql2:pool:connect');

let subscribed = false;

/** Records mysql2's queries and prepared statements into the request that runs them, from now on. */
export function startMysql2Capture(): void {
  if (subscribed) return;
  subscribed = true;
  for (const channel of queryChannels) hear(channel, QUERY_HANDLERS, true);
  hear(poolConnect, POOL_HANDLERS, true);
  bindRequestScope(poolConnect.asyncStart, (message) => (message as Tagged)[RECORDER]);
  poolConnect.asyncStart.bindStore(poolCaller, (message) => (message as Tagged)[CALLER]);
}

export function stopMysql2Capture(): void {
  if (!subscribed) return;
  subscribed = false;
  for (const channel of queryChannels) hear(channel, QUERY_HANDLERS, false);
  hear(poolConnect, POOL_HANDLERS, false);
  unbindRequestScope(poolConnect.asyncStart);
  poolConnect.asyncStart.unbindStore(poolCaller);
}
