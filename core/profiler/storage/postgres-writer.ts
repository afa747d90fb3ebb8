import { Worker } from 'node:worker_threads';
import type pg from 'pg';
import { insertRows, type ProfileRow } from './postgres-insert.js';

interface Pending {
  rows: ProfileRow[];
  resolve: (written: string[]) => void;
  reject: (error: Error) => void;
}

/**
 * Sends the store's batches to a worker thread of its own, which inserts them over its own
 * connection: building a 500-row statement and its bind message costs the event loop about
 * 60 µs a profile, the copy into the message a tenth of that. The worker is started at the first
 * batch and keeps the process alive only while a batch is in it. If it fails, batches are
 * inserted from this thread through `pool` and `onFailure` is told once.
 */
export class PostgresWriter {
  readonly #url: string;
  readonly #pool: pg.Pool;
  readonly #onFailure: (message: string) => void;
  #worker: Worker | null = null;
  #failed = false;
  #nextId = 0;
  readonly #pending = new Map<number, Pending>();

  constructor(url: string, pool: pg.Pool, onFailure: (message: string) => void) {
    this.#url = url;
    this.#pool = pool;
    this.#onFailure = onFailure;
  }

  /** Resolves to the tokens written; rejects with the database's error (its code kept). */
  insert(rows: ProfileRow[]): Promise<string[]> {
    const worker = this.#ensureWorker();
    if (!worker) return insertRows(this.#pool, rows);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { rows, resolve, reject });
      worker.ref();
      const { heads, bodies, ends } = pack(rows);
      worker.postMessage({ id, heads, bodies, ends }, [bodies.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    const stopping = this.#worker;
    this.#worker = null;
    this.#failed = true;
    for (const { rows, resolve, reject } of this.#pending.values()) insertRows(this.#pool, rows).then(resolve, reject);
    this.#pending.clear();
    if (stopping) await stopping.terminate();
  }

  #ensureWorker(): Worker | null {
    if (this.#failed) return null;
    if (this.#worker) return this.#worker;
    try {
      const worker = new Worker(new URL('./postgres-writer-worker.js', import.meta.url), { workerData: { url: this.#url } });
      worker.on('message', (message: { id: number; written?: string[]; error?: { message: string; code?: string } }) => {
        const job = this.#pending.get(message.id);
        if (!job) return;
        this.#pending.delete(message.id);
        if (this.#pending.size === 0) worker.unref();
        if (message.error) job.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
        else job.resolve(message.written ?? []);
      });
      worker.on('error', (error) => this.#fail(worker, error.message));
      worker.on('exit', (code) => this.#fail(worker, `it exited with code ${code}`));
      worker.unref();
      this.#worker = worker;
      return worker;
    } catch (error) {
      this.#fail(null, (error as Error).message);
      return null;
    }
  }

  #fail(worker: Worker | null, why: string): void {
    if (this.#failed || (worker !== null && worker !== this.#worker)) return;
    this.#failed = true;
    this.#worker = null;
    this.#onFailure(`The profile database writer thread failed (${why}): profiles are written from the main thread from now on.`);
    for (const { rows, resolve, reject } of this.#pending.values()) insertRows(this.#pool, rows).then(resolve, reject);
    this.#pending.clear();
  }
}

/**
 * The rows without their bodies, and the bodies end to end in one buffer to move to the worker:
 * a body may be a view of a larger buffer (a pooled one, a batch's), which a message would copy whole.
 */
function pack(rows: readonly ProfileRow[]): { heads: Omit<ProfileRow, 'body'>[]; bodies: Uint8Array; ends: number[] } {
  const ends: number[] = [];
  let total = 0;
  for (const row of rows) ends.push(total += row.body.byteLength);
  const bodies = new Uint8Array(total);
  const heads = rows.map(({ body, ...head }, i) => {
    bodies.set(body, i === 0 ? 0 : ends[i - 1]);
    return head;
  });
  return { heads, bodies, ends };
}
