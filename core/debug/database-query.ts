import { appFrame, type AppFrame, type StackHolder } from './app-frame.js';
import { spanMs } from '../http/request.js';

/** The app entries' name of the Database panel's queries (RequestTrace.addEntry). */
export const DATABASE_COLLECTOR = 'db';

/** Where a query went; never the password. */
export interface DatabaseTarget {
  host: string | null;
  port: number | null;
  name: string | null;
  user: string | null;
}

/** A query as it travels to the profiler worker (plain data): what the Database collector reads. */
export interface QueryEntry {
  driver: 'pg' | 'mysql2';
  sql: string;
  params: unknown[];
  /** ms since the request started */
  start: number;
  /** ms; null when it had not ended at the hand-off */
  duration: number | null;
  /** rows returned or affected; null when the driver did not say */
  rows: number | null;
  error: string | null;
  database: DatabaseTarget;
  /** the app's own frame that issued the query; null when none was on the stack */
  frame: AppFrame | null;
  /** its stack was not taken: `frame` is where the last run of its statement whose stack was taken came from (statement-runs.ts) */
  frameAssumed: boolean;
  /** `app serve --slow-query <ms>`: null when no threshold was set */
  slowMs: number | null;
}

export type { StackHolder };

/** Deep enough for an ORM's layers and a driver's own; each frame more costs every query. */
const STACK_DEPTH = 14;

/**
 * The stack of the code calling `calledThrough`, the frames above it left out, formatted only when read;
 * into `holder` when given (one a record already holds). Capturing is most of what recording a query
 * costs (V8 rebuilds each optimized frame it walks): the wrappers capture once the driver has sent the
 * query, while it is in flight, from the same frames.
 */
export function captureStack(calledThrough: Function, holder: StackHolder = {}): StackHolder {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_DEPTH;
  Error.captureStackTrace(holder, calledThrough);
  Error.stackTraceLimit = limit;
  return holder;
}

/** The app's frame of a stack, found once: the runs assumed from one run's stack share it. */
function frameOf(stack: StackHolder, root: string): AppFrame | null {
  if (stack.frame === undefined) stack.frame = appFrame(stack, root);
  return stack.frame;
}

/**
 * One query the request's code ran: what the driver was given, by reference, and clock readings.
 * The stack is captured unformatted; its text (source-mapped) and the app's frame are made only when
 * the query is shown (the toolbar) or handed to the profiler (toJSON), off the query's own path.
 */
export class QueryRecord {
  endAt: number | null = null;
  rows: number | null = null;
  error: string | null = null;
  /** its own stack, or else the stack of the run of its statement whose place its own is assumed to be */
  readonly #stack: StackHolder | null;
  readonly #assumed: boolean;
  #frame: QueryEntry['frame'] | undefined;

  constructor(
    readonly driver: QueryEntry['driver'],
    readonly origin: number,
    readonly startAt: number,
    readonly sql: string,
    readonly params: readonly unknown[],
    readonly database: DatabaseTarget,
    readonly root: string,
    readonly slowMs: number | null,
    /**
     * where the app called the driver (captureStack), filled in at the latest when the driver's call
     * returns; null when it is not taken, the place then assumed from `assumedFrom`
     */
    stack: StackHolder | null,
    /** the stack of its statement's last run whose stack was taken (StatementRuns.stack), when its own is not */
    assumedFrom: StackHolder | null = null,
  ) {
    this.#stack = stack ?? assumedFrom;
    this.#assumed = stack === null && assumedFrom !== null;
  }

  /** Its stack was not taken: its frame is that of its statement's last run, before it, whose stack was. */
  get frameAssumed(): boolean {
    return this.#assumed && this.frame !== null;
  }

  ended(rows: number | null, error: unknown): void {
    this.endAt = performance.now();
    this.rows = rows;
    if (error !== null && error !== undefined) this.error = String((error as Error)?.message ?? error);
  }

  get duration(): number | null {
    return this.endAt === null ? null : spanMs(this.origin, this.endAt) - spanMs(this.origin, this.startAt);
  }

  /** The app's own frame nearest the driver, once. */
  get frame(): QueryEntry['frame'] {
    if (this.#frame === undefined) this.#frame = this.#stack === null ? null : frameOf(this.#stack, this.root);
    return this.#frame;
  }

  /** ms since the request started */
  get start(): number {
    return spanMs(this.origin, this.startAt);
  }

  /** The parameters as JSON can carry them (plainParam). */
  plainParams(): unknown[] {
    return this.params.length === 0 ? [] : this.params.map(plainParam);
  }

  toJSON(): QueryEntry {
    return {
      driver: this.driver,
      sql: this.sql,
      params: this.plainParams(),
      start: this.start,
      duration: this.duration,
      rows: this.rows,
      error: this.error,
      database: this.database,
      frame: this.frame,
      frameAssumed: this.frameAssumed,
      slowMs: this.slowMs,
    };
  }
}

/** A parameter as JSON can carry it, written as the driver sends it: a date as ISO text, bytes as hex, a BigInt as digits. */
function plainParam(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (value instanceof Uint8Array)
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  if (Array.isArray(value)) return value.map(plainParam);
  if (typeof value === 'object') {
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  }
  return value;
}
