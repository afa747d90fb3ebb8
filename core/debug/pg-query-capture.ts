import { databaseCaptureSettings } from './database-capture-settings.js';
import {
  captureStack,
  DATABASE_COLLECTOR,
  QueryRecord,
  type DatabaseTarget,
  type StackHolder,
} from './database-query.js';
import { poolKey, rememberPool, type LivePool } from './live-pools.js';
import { currentRecorder, runInRequestScope, type RequestRecorder } from './request-scope.js';
import { countRun } from './statement-runs.js';

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** What the wrapper reads of a `pg` module: its Client's query method and its Pool's connect. */
export interface PgModule {
  Client?: { prototype: { query?: Method } };
  Pool?: { prototype: { connect?: Method; query?: Method } };
}

interface PgClient {
  host?: unknown;
  port?: unknown;
  database?: unknown;
  user?: unknown;
}

const WRAPPED = Symbol.for('appkernel.db.wrapped');

/** A pool.query's run of its statement, counted: its stack when taken, else the one its place is assumed from. */
interface PoolCall {
  stack: StackHolder | null;
  assumedFrom: StackHolder | null;
}

/**
 * Where the app called pool.query: the client's query runs later, from the pool's callback, where the
 * app's frames are no longer on the stack. pool.query asks the pool for a client (connect) before it
 * returns, and the pool's callback runs the client's query before it returns: each hands the call on
 * for that synchronous stretch only.
 */
let poolQueryCaller: PoolCall | null = null;
let poolCallbackCaller: PoolCall | null = null;

/** The statement's text of a query's first argument: a string, or a config's text. */
function textOf(config: unknown): string | undefined {
  const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : undefined;
}

/**
 * Wraps one `pg` module's Client.prototype.query (which pg.Pool's queries go through too) so that a
 * query run while a request is recorded is added to it, and its Pool.prototype.connect so that a
 * pool's callback (a query waiting for a free client) runs in the caller's request, not in the one
 * that freed the client. Outside a recorded request, or with the panel off, both only pass through.
 * Returns false when the module is not a `pg` it knows.
 */
export function wrapPgModule(pg: PgModule, parameters?: ParametersOf): boolean {
  const client = pg.Client?.prototype;
  if (!client || typeof client.query !== 'function') return false;
  if ((client.query as unknown as Record<symbol, unknown>)[WRAPPED]) return true;
  client.query = wrappedQuery(client.query);
  const pool = pg.Pool?.prototype;
  const remember =
    parameters === undefined ? () => {} : (poolObject: unknown) => rememberPgPool(poolObject as PgPool, parameters);
  if (pool && typeof pool.connect === 'function' && !Object.hasOwn(pool.connect, WRAPPED))
    pool.connect = wrappedConnect(pool.connect, remember);
  if (pool && typeof pool.query === 'function' && !Object.hasOwn(pool.query, WRAPPED))
    pool.query = wrappedPoolQuery(pool.query, remember);
  return true;
}

function wrappedQuery(original: Method): Method {
  const query = function (this: unknown, ...args: unknown[]): unknown {
    const settings = databaseCaptureSettings();
    const recorder = settings === null ? undefined : currentRecorder();
    if (recorder === undefined || settings === null) return original.apply(this, args);
    const [config, values] = args;
    const text = textOf(config);
    if (text === undefined) return original.apply(this, args);
    const given = (config as { values?: unknown }).values;
    const params = Array.isArray(given) ? given : Array.isArray(values) ? values : [];
    const caller = poolCallbackCaller;
    poolCallbackCaller = null;
    let stack: StackHolder | null;
    let assumedFrom: StackHolder | null;
    if (caller !== null) ({ stack, assumedFrom } = caller);
    else {
      const runs = countRun(recorder, text, settings.stackedRuns);
      stack = runs.takesStack ? runs.stack : null;
      assumedFrom = runs.stack;
    }
    const record = new QueryRecord(
      'pg',
      recorder.origin,
      performance.now(),
      text,
      params,
      target(this as PgClient),
      settings.root,
      settings.slowQueryMs,
      stack,
      stack === null ? assumedFrom : null,
    );
    recorder.add(DATABASE_COLLECTOR, record);
    const at = typeof args[2] === 'function' ? 2 : typeof args[1] === 'function' ? 1 : -1;
    if (at === -1 && typeof config === 'string') {
      const promise = promiseOf(this as PgPromising, original, args, record);
      if (caller === null && stack !== null) captureStack(query, stack);
      return promise;
    }
    if (at !== -1) args[at] = endingFirst(record, args[at] as Method);
    let returned: unknown;
    try {
      returned = original.apply(this, args);
    } finally {
      // the query is sent (pg writes it before returning when the client is free): the stack is taken while it runs
      if (caller === null && stack !== null) captureStack(query, stack);
    }
    if (at === -1) endWhenSettled(record, returned);
    return returned;
  };
  Object.defineProperty(query, WRAPPED, { value: true });
  return query;
}

/*
 * The functions that end a record are made by the helpers below, never inside a wrapper: a closure
 * made in the wrapper's frame (the driver's callback wrapped there) made V8 promote each pooled
 * query's objects to the old generation (50 MB over 300,000 queries of a pg.Pool, against 2 MB, and
 * five times the full collections).
 */

/** The driver's callback, the record ended first. */
function endingFirst(record: QueryRecord, callback: Method): Method {
  return function (this: unknown, error: unknown, result: unknown) {
    record.ended(error ? null : rowsOf(result), error);
    return callback.call(this, error, result);
  };
}

/** Ends the record when what the driver returned settles: a promise, or a Submittable (a cursor, a query stream) as an emitter. */
function endWhenSettled(record: QueryRecord, returned: unknown): void {
  if (returned === null || typeof returned !== 'object') return;
  if (typeof (returned as Promise<unknown>).then === 'function') {
    (returned as Promise<unknown>).then(
      (result) => record.ended(rowsOf(result), null),
      (error: unknown) => record.ended(null, error),
    );
  } else if (typeof (returned as NodeJS.EventEmitter).once === 'function') {
    (returned as NodeJS.EventEmitter).once('end', () => record.ended(null, null));
    (returned as NodeJS.EventEmitter).once('error', (error: unknown) => record.ended(null, error));
  }
}

interface PgPromising {
  /** the Client's `Promise` option */
  _Promise?: PromiseConstructor;
}

/**
 * A statement given as text without a callback: the query is run with a callback of ours, and its
 * promise made here as pg makes its own (its client's Promise, the stack of a failure taken again where
 * the app awaits it), where a reaction to pg's promise would be one promise and one microtask more.
 */
function promiseOf(client: PgPromising, original: Method, args: unknown[], record: QueryRecord): Promise<unknown> {
  const Promising = client._Promise ?? Promise;
  return new Promising((resolve, reject) => {
    original.call(client, args[0], args[1], (error: unknown, result: unknown) => {
      record.ended(error ? null : rowsOf(result), error);
      if (error) reject(error);
      else resolve(result);
    });
  }).catch(function failed(error: unknown) {
    if (error instanceof Error) Error.captureStackTrace(error, failed);
    throw error;
  });
}

function wrappedPoolQuery(original: Method, remember: (pool: unknown) => void): Method {
  const query = function (this: unknown, ...args: unknown[]): unknown {
    const settings = databaseCaptureSettings();
    const recorder = settings === null ? undefined : currentRecorder();
    if (recorder === undefined || settings === null) return original.apply(this, args);
    remember(this);
    const previous = poolQueryCaller;
    const text = textOf(args[0]);
    const runs = text === undefined ? null : countRun(recorder, text, settings.stackedRuns);
    const call: PoolCall =
      runs === null
        ? { stack: {}, assumedFrom: null }
        : { stack: runs.takesStack ? runs.stack : null, assumedFrom: runs.stack };
    poolQueryCaller = call;
    try {
      return original.apply(this, args);
    } finally {
      poolQueryCaller = previous;
      // before the query is sent: pg-pool hands even an idle client over at the next tick (process.nextTick
      // in Pool.connect), so this capture is on the round trip, where a Client's is not
      if (call.stack !== null) captureStack(query, call.stack);
    }
  };
  Object.defineProperty(query, WRAPPED, { value: true });
  return query;
}

function wrappedConnect(original: Method, remember: (pool: unknown) => void): Method {
  const connect = function (this: unknown, ...args: unknown[]): unknown {
    const recorder = databaseCaptureSettings() === null ? undefined : currentRecorder();
    if (recorder === undefined) return original.apply(this, args);
    const caller = poolQueryCaller;
    poolQueryCaller = null;
    // a pool.query's connect: the pool was remembered there
    if (caller === null) remember(this);
    if (typeof args[0] === 'function') args[0] = inRequest(recorder, caller, args[0] as Method);
    return original.apply(this, args);
  };
  Object.defineProperty(connect, WRAPPED, { value: true });
  return connect;
}

/**
 * The pool's callback, run in the caller's request, not in the one that freed the client (a query
 * waiting for a free client is handed it from another request's release); a pool.query's client query
 * is handed the stack of the pool.query.
 */
function inRequest(recorder: RequestRecorder, caller: PoolCall | null, callback: Method): Method {
  return function (this: unknown, ...args: unknown[]): unknown {
    const previous = poolCallbackCaller;
    poolCallbackCaller = caller;
    try {
      // an idle client is handed over at the caller's next tick, still in its request
      return currentRecorder() === recorder
        ? callback.apply(this, args)
        : runInRequestScope(recorder, callback, this, args);
    } finally {
      poolCallbackCaller = previous;
    }
  };
}

/** pg's own ConnectionParameters: a pool's options (a connection string, the PG* variables) read as its clients read them. */
export type ParametersOf = new (options: unknown) => PgClient;

interface PgPool {
  options?: unknown;
  ending?: boolean;
  ended?: boolean;
  query(config: { text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

const livePools = new WeakMap<PgPool, { key: string; pool: LivePool }>();

function rememberPgPool(pgPool: PgPool, parameters: ParametersOf): void {
  let known = livePools.get(pgPool);
  if (known === undefined) {
    const target = targetOf(new parameters(pgPool.options ?? {}));
    known = {
      key: poolKey('pg', target),
      pool: {
        driver: 'pg',
        // values given (even none) keep pg on the extended protocol: one statement, never several
        run: async (sql, params) => (await pgPool.query({ text: sql, values: [...params] })).rows,
        open: () => pgPool.ending !== true && pgPool.ended !== true,
      },
    };
    livePools.set(pgPool, known);
  }
  rememberPool(known.key, known.pool);
}

function target(client: PgClient): DatabaseTarget {
  return targetOf(client);
}

function targetOf(client: PgClient): DatabaseTarget {
  return {
    host: typeof client.host === 'string' ? client.host : null,
    port: typeof client.port === 'number' ? client.port : Number(client.port) || null,
    name: typeof client.database === 'string' ? client.database : null,
    user: typeof client.user === 'string' ? client.user : null,
  };
}

/** rowCount (rows returned or affected), summed over the results of several statements. */
function rowsOf(result: unknown): number | null {
  if (Array.isArray(result)) {
    let sum: number | null = null;
    for (const one of result) {
      const rows = rowsOf(one);
      if (rows !== null) sum = (sum ?? 0) + rows;
    }
    return sum;
  }
  const r = result as { rowCount?: unknown; rows?: unknown } | null | undefined;
  if (typeof r?.rowCount === 'number') return r.rowCount;
  return Array.isArray(r?.rows) ? r.rows.length : null;
}
