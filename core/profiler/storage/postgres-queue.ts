import type pg from 'pg';
import { isConnectionError } from './postgres-errors.js';
import type { StoredEntry } from './profile-storage.js';
import { BATCH_ROWS, insertRows, type ProfileRow } from './postgres-insert.js';
import { isProfilerUrl } from './summary-filter.js';

export type QueuedProfile = StoredEntry;

export interface PostgresQueueEvents {
  /** a batch is in the table: the tokens inserted, and the bytes the batch counts for */
  written(stored: string[], bytes: number): void;
  /** profiles that will never be written, and why (the owner counts them and warns, at most once per interval) */
  dropped(tokens: string[], reason: string): void;
  /** the database went away or came back */
  warn(message: string): void;
}

/**
 * How long the first queued profile waits for others to share its INSERT, and the least time
 * between two INSERTs unless a full batch (BATCH_ROWS) is queued or a flush waits. A statement
 * costs the database about as much as fifty rows (the trigger of the counts, its plan, the commit:
 * about 0.5 ms against 8 to 9 µs per row), and this thread about as much as twenty profiles (the
 * driver, a deflate per block). Sent as soon as the one before came back, a busy server's
 * statements carried what arrived during the last round trip, a few dozen rows on a quiet machine;
 * paced, they carry BATCH_ROWS or a tenth of a second's worth. This instance reads its queued
 * profiles from memory meanwhile; the others see them that much later.
 */
export const GATHER_MS = 100;
const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 2_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/**
 * The write side of the PostgreSQL store, in whichever thread holds it (the profiler worker, or the
 * main thread when the worker cannot): profiles are queued and inserted in batches (one INSERT of up
 * to BATCH_ROWS rows, the same prepared statement whatever their number, postgres-insert.ts); while
 * the database is away the queue waits and is written once it is back. The hand-off bounds the queue.
 */
export class PostgresQueue {
  /** queued or being written, oldest first */
  #queue: QueuedProfile[] = [];
  /** the same, by token */
  readonly waiting = new Map<string, QueuedProfile>();
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> | null = null;
  /** when the last INSERT was sent (performance.now()) */
  #sentAt = -Infinity;
  #drained: (() => void)[] = [];
  down = false;
  /** past it, a database still away makes the queue give up (set by close) */
  #deadline = Infinity;

  constructor(
    private readonly db: pg.Pool,
    private readonly instance: () => string,
    private readonly events: PostgresQueueEvents,
  ) {}

  get length(): number {
    return this.#queue.length;
  }

  enqueue(queued: QueuedProfile): void {
    this.#queue.push(queued);
    this.waiting.set(queued.summary.token, queued);
    if (this.#writing) return;
    if (this.#queue.length >= BATCH_ROWS) this.#pump();
    else this.#timer ??= setTimeout(() => this.#pump(), GATHER_MS);
  }

  /** Resolves when everything queued so far is written or dropped. */
  async flush(): Promise<void> {
    if (this.#queue.length === 0 && this.#writing === null) return;
    await new Promise<void>((resolve) => {
      this.#drained.push(resolve);
      this.#pump();
    });
  }

  /** From now on, a database away for more than `ms` makes the queue drop what it holds. */
  giveUpAfter(ms: number): void {
    this.#deadline = Math.min(this.#deadline, Date.now() + ms);
  }

  get givingUp(): boolean {
    return Date.now() > this.#deadline;
  }

  /** Starts writing the queue unless a write is under way (it takes what is queued when it ends). */
  #pump(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#writing) return;
    this.#writing = this.#writeQueue().finally(() => {
      this.#writing = null;
      if (this.#queue.length === 0) for (const wake of this.#drained.splice(0)) wake();
      else if (this.#mustSend()) this.#pump();
      else this.#timer ??= setTimeout(() => this.#pump(), Math.max(0, this.#sentAt + GATHER_MS - performance.now()));
    });
  }

  /** A full batch is queued, or a flush waits: no reason to wait for more. */
  #mustSend(): boolean {
    return this.#queue.length >= BATCH_ROWS || this.#drained.length > 0;
  }

  async #writeQueue(): Promise<void> {
    let retry = RETRY_MIN_MS;
    while (this.#queue.length > 0) {
      const batch = this.#queue.slice(0, BATCH_ROWS);
      try {
        this.#sentAt = performance.now();
        await this.#insert(batch);
        retry = RETRY_MIN_MS;
        if (!this.#mustSend()) return;
      } catch (error) {
        if (!isConnectionError(error)) {
          this.#forget(batch);
          this.events.dropped(
            batch.map((q) => q.summary.token),
            `${batch.length} ${plural(batch.length, 'profile', 'profiles')} could not be written to the profile database (${(error as Error).message}), so ${plural(batch.length, 'it was', 'they were')} dropped.`,
          );
          continue;
        }
        if (!this.down) {
          this.down = true;
          this.events.warn(
            `The profile database went away (${(error as Error).message}): profiles are queued (as many as the write queue holds) and written once it is back.`,
          );
        }
        if (this.givingUp) {
          const lost = this.#queue;
          this.#forget(lost);
          this.events.dropped(
            lost.map((q) => q.summary.token),
            `The profile database is still away: ${lost.length} queued ${plural(lost.length, 'profile was', 'profiles were')} dropped at close.`,
          );
          return;
        }
        await delay(retry);
        retry = Math.min(RETRY_MAX_MS, retry * 2);
      }
    }
  }

  async #insert(batch: QueuedProfile[]): Promise<void> {
    let bytes = 0;
    const instance = this.instance();
    const rows = batch.map(({ summary, json }): ProfileRow => {
      const size = json.length + summary.url.length;
      bytes += size;
      return {
        token: summary.token,
        time: summary.time,
        status: summary.status,
        ip: summary.ip,
        method: summary.method,
        url: summary.url,
        duration: summary.duration,
        instance,
        profiler: isProfilerUrl(summary.url),
        bytes: size,
        route: summary.route ?? null,
        body: json,
      };
    });
    const written = new Set(await insertRows(this.db, rows));
    if (this.down) {
      this.down = false;
      this.events.warn(
        `The profile database is back: writing the ${this.#queue.length} queued ${plural(this.#queue.length, 'profile', 'profiles')}.`,
      );
    }
    this.#forget(batch);
    const taken = batch.map((q) => q.summary.token).filter((token) => !written.has(token));
    this.events.written([...written], bytes);
    for (const token of taken) {
      this.events.dropped(
        [token],
        `Profile token "${token}" was already taken by another instance's profile, which is kept: this one was dropped.`,
      );
    }
  }

  /** Takes the first `batch.length` profiles off the queue (the batch written or given up). */
  #forget(batch: QueuedProfile[]): void {
    const count = batch.length;
    for (const { summary } of this.#queue.slice(0, count)) this.waiting.delete(summary.token);
    this.#queue = this.#queue.slice(count);
  }
}
