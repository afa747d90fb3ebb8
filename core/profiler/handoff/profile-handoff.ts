import { Worker } from 'node:worker_threads';
import type { RouteCollection } from '../../routing/route-collection.js';
import type { Request } from '../../http/request.js';
import { RecordingTrace, traceNames, type RequestTrace } from '../../kernel/request-trace.js';
import type { ResponseFacts } from '../request-facts.js';
import { buildRecordedProfiles, type BuiltBatch } from './build-batch.js';
import { BatchBuffers } from './batch-buffers.js';
import { roomForTheWorkerHeap } from './worker-heap.js';
import { ByteWriter } from './byte-writer.js';
import { writeRequestRecord } from './request-record.js';
import { routeTableData, RouteTables, type RouteDefinitionData } from './route-tables.js';
import type { StoredEntry, StoreWriterSpec, WrittenReport } from '../storage/profile-storage.js';
import { releaseSharedWriting } from '../storage/store-files.js';
import type { FromProfilerWorker, ToProfilerWorker } from './profiler-worker.js';

/** Where the built profiles go: the store's intake (profile-intake.ts), told of each one when its response was sent. */
export interface AnnouncingStore {
  announce(token: string): boolean;
  writeBatch(entries: readonly StoredEntry[]): void;
  cancel(token: string, reason: string): void;
  /** when given, the worker writes the store itself, and what it wrote is reported through written() */
  writerSpec?(): StoreWriterSpec | null;
  written?(report: WrittenReport, elsewhere: boolean): void;
}

/**
 * Records gathered into one batch before it is handed over. Short of that, a batch leaves when the
 * worker answers the one it holds (under load batches grow while it is busy), or, when it holds
 * none, at the next turn of the event loop: at once for the first request in a while, else
 * IDLE_LINGER_MS after the last batch left, as a message wakes a sleeping worker (a system call
 * and a switch of threads each time) and a message, and its answers, should serve many profiles.
 * With the server's threads on one core, 256 records and 16 ms took 3 to 5 µs a request less than
 * 64 and 4 ms (five pairs under wrk on /static): each wake-up of the worker costs the main thread
 * more than its own work, as the two share the core's caches.
 */
const BATCH_RECORDS = 256;
const IDLE_LINGER_MS = 16;

interface Sent {
  tokens: string[];
  /** kept until the worker sends the profiles back: should it fail or be slow at close, they are built here */
  records: Uint8Array;
  /** the shared buffer `records` is in, lent until the worker has answered */
  shared: SharedArrayBuffer | null;
}

/** how long close() waits for a worker still starting before it builds what the worker holds on this thread */
const CLOSE_WAIT_MS = 250;
/** how long close() waits for a running worker to write what it holds into the store */
const CLOSE_WRITE_WAIT_MS = 5_000;

/**
 * The main thread's end of the profiler: each answered request is written as a record
 * (request-record.ts) into a batch, and batches are transferred to the profiler worker,
 * which builds the profiles and sends back their JSON for the store. The main thread
 * builds no profile and serialises none. Bounded by the store's queue: a profile the
 * store cannot take is dropped and counted there. If the worker fails, batches are
 * built on this thread from then on, and `warn` is told once.
 */
export class ProfileHandoff {
  readonly #writer = new ByteWriter();
  readonly #buffers = new BatchBuffers();
  /** each shared buffer made, by the number it has in the worker's messages */
  readonly #bufferIds = new Map<SharedArrayBuffer, number>();
  /** the shared buffers the current worker was given, by number */
  readonly #workerHas = new Set<number>();
  #tokens: string[] = [];
  #scheduled = false;
  /** when the last batch left (performance.now()) */
  #sentAt = -Infinity;
  #worker: Worker | null = null;
  #failed = false;
  #nextBatch = 0;
  readonly #sent = new Map<number, Sent>();
  #nextTable = 0;
  readonly #tables = new Map<number, RouteDefinitionData[]>();
  /** the same tables, for building on this thread after a failure */
  readonly #localTables = new RouteTables();
  /** how many trace names the worker has been sent (each record carries those registered since) */
  #namesSent = 0;
  /** the store's write side the worker opens, while it writes the store itself */
  #writerSpec: StoreWriterSpec | null;
  /** profiles the worker queued in its store and has not reported yet */
  readonly #inWriter = new Set<string>();
  #ready = false;
  #closed = false;
  /** the worker's thread id, taken at its start (a stopped Worker reports -1) */
  #thread = -1;

  /** Starts the worker at once: it takes a moment to load, and the first profile should not wait for that. */
  /** `workerUrl`: the worker's module (a test gives one that fails on purpose) */
  constructor(
    private readonly store: AnnouncingStore,
    private readonly warn: (message: string) => void,
    private readonly workerUrl = new URL('./profiler-worker.js', import.meta.url),
  ) {
    this.#writerSpec = store.written ? (store.writerSpec?.() ?? null) : null;
    this.#ensureWorker();
  }

  /** Registers a route table (one per kernel); records name it by the id returned. */
  addRoutes(routes: RouteCollection): number {
    const id = this.#nextTable++;
    const data = routeTableData(routes);
    this.#tables.set(id, data);
    this.#localTables.set(id, data);
    this.#post({ type: 'routes', id, routes: data });
    return id;
  }

  /** Hands over one answered request, profiled under its trace's token (a request not traced is not). */
  submit(request: Request, trace: RequestTrace, response: ResponseFacts, routes: number): void {
    const token = trace.token;
    if (token === null || !(trace instanceof RecordingTrace) || !this.store.announce(token)) return;
    const start = this.#writer.length;
    try {
      const at = this.#writer.reserve32();
      const names = traceNames();
      writeRequestRecord(this.#writer, request, trace, response, routes, names, this.#namesSent);
      this.#writer.patch32(at, this.#writer.length - at - 4);
      this.#namesSent = names.length;
    } catch (error) {
      this.#writer.rewind(start);
      this.store.cancel(token, `A profile could not be recorded (${(error as Error).message}), so it was dropped.`);
      return;
    }
    this.#tokens.push(token);
    if (this.#tokens.length >= BATCH_RECORDS) this.#send();
    else if (this.#sent.size === 0) this.#sendSoon(IDLE_LINGER_MS);
  }

  /** Sends what is gathered at the next turn of the event loop, or `linger` ms after the last batch left if that is later. */
  #sendSoon(linger = 0): void {
    if (this.#scheduled || this.#tokens.length === 0) return;
    this.#scheduled = true;
    const wait = this.#sentAt + linger - performance.now();
    if (wait <= 0) setImmediate(this.#send);
    else setTimeout(this.#send, wait);
  }

  /** Hands over what is gathered now; the store's flush() then waits for the profiles. */
  flush(): void {
    this.#send();
  }

  /**
   * Hands over what is gathered and has the worker write what it holds and close its side of the
   * store; then stops it. A worker still starting is waited for a moment only (on a busy machine it
   * must not hold up a shutdown): what it holds is then built and written on this thread.
   */
  async close(): Promise<void> {
    this.#send();
    const worker = this.#worker;
    if (worker && this.#writerSpec) this.#post({ type: 'close' });
    const start = Date.now();
    const busy = () => (this.#writerSpec ? !this.#closed : this.#sent.size > 0);
    while (
      this.#worker === worker &&
      worker &&
      busy() &&
      Date.now() - start < (this.#ready ? CLOSE_WRITE_WAIT_MS : CLOSE_WAIT_MS)
    ) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (this.#worker !== worker) return;
    this.#worker = null;
    this.#failed = true;
    if (worker) await worker.terminate();
    this.#afterWorker(worker, 'the profiler worker was stopped before it stored it');
  }

  #post(message: ToProfilerWorker): void {
    this.#worker?.postMessage(message);
  }

  readonly #send = (): void => {
    this.#scheduled = false;
    if (this.#tokens.length === 0) return;
    this.#sentAt = performance.now();
    const tokens = this.#tokens;
    this.#tokens = [];
    const worker = this.#ensureWorker();
    if (!worker) {
      const records = new Uint8Array(this.#writer.take());
      this.#deliver(
        { tokens, records, shared: null },
        buildRecordedProfiles(records, this.#localTables, [...traceNames()]),
      );
      return;
    }
    const length = this.#writer.length;
    const shared = this.#buffers.lend(length);
    let records: Uint8Array;
    if (shared === null) records = new Uint8Array(this.#writer.take());
    else {
      records = new Uint8Array(shared, 0, length);
      this.#writer.takeInto(records);
    }
    const id = this.#nextBatch++;
    this.#sent.set(id, { tokens, records, shared });
    worker.ref();
    if (shared === null) {
      // A buffer of its own is copied by the message (the batch stays here until its profiles come back).
      this.#post({ type: 'batch', id, records: records.buffer as ArrayBuffer, length });
      return;
    }
    // A shared buffer goes to the worker once, the first time it carries a batch there: each one
    // received is a new object of the worker's heap, counted as that much memory held outside it,
    // and batch after batch of them made V8 collect the worker's whole heap several times a second.
    const buffer = this.#bufferIds.get(shared) ?? this.#bufferIds.set(shared, this.#bufferIds.size).size - 1;
    if (this.#workerHas.has(buffer)) this.#post({ type: 'batch', id, buffer, length });
    else {
      this.#workerHas.add(buffer);
      this.#post({ type: 'batch', id, buffer, records: shared, length });
    }
  };

  #ensureWorker(): Worker | null {
    if (this.#failed) return null;
    if (this.#worker) return this.#worker;
    try {
      roomForTheWorkerHeap();
      const worker = new Worker(this.workerUrl);
      this.#workerHas.clear();
      worker.on('message', (message: FromProfilerWorker) => this.#receive(worker, message));
      worker.on('error', (error) => this.#fail(worker, error.message));
      worker.on('exit', (code) => this.#fail(worker, `it exited with code ${code}`));
      worker.unref();
      this.#worker = worker;
      this.#thread = worker.threadId;
      for (const [id, routes] of this.#tables) this.#post({ type: 'routes', id, routes });
      if (this.#writerSpec) this.#post({ type: 'store', spec: this.#writerSpec });
      return worker;
    } catch (error) {
      this.#fail(null, (error as Error).message);
      return null;
    }
  }

  #receive(worker: Worker, message: FromProfilerWorker): void {
    switch (message.type) {
      case 'ready':
        this.#ready = true;
        return;
      case 'built':
      case 'taken': {
        const sent = this.#sent.get(message.id);
        if (!sent) return;
        this.#sent.delete(message.id);
        if (sent.shared) this.#buffers.giveBack(sent.shared);
        if (message.type === 'built') this.#deliver(sent, message);
        else this.#taken(sent, message.queued, message.failures);
        if (this.#sent.size === 0) this.#sendSoon();
        break;
      }
      case 'written':
        for (const token of message.report.stored) this.#inWriter.delete(token);
        for (const token of message.report.dropped) this.#inWriter.delete(token);
        this.store.written?.(message.report, true);
        break;
      case 'store-failed':
        this.#writerSpec = null;
        this.warn(
          `The profiler worker could not open the profile store (${message.message}): profiles are written from the main thread.`,
        );
        return;
      case 'closed':
        this.#closed = true;
        return;
    }
    if (this.#sent.size === 0 && this.#inWriter.size === 0) worker.unref();
  }

  #fail(worker: Worker | null, why: string): void {
    if (this.#failed || (worker !== null && worker !== this.#worker)) return;
    this.#failed = true;
    this.#worker = null;
    this.warn(`The profiler worker failed (${why}): profiles are built on the main thread from now on.`);
    this.#afterWorker(worker, 'the profiler worker failed before it stored it');
    void worker?.terminate();
  }

  /**
   * The worker is gone: the batches it had not taken are built here, the profiles it had queued in
   * its store and not reported are dropped, and its segment is no longer one being written.
   */
  #afterWorker(worker: Worker | null, lost: string): void {
    this.#buildSentHere();
    this.#sendSoon();
    for (const token of this.#inWriter) this.store.cancel(token, `A profile was dropped: ${lost}.`);
    this.#inWriter.clear();
    if (worker) releaseSharedWriting(this.#thread);
  }

  /** The batches in the worker's hands, built on this thread instead. */
  #buildSentHere(): void {
    for (const sent of this.#sent.values()) {
      this.#deliver(sent, buildRecordedProfiles(sent.records, this.#localTables, [...traceNames()]));
      if (sent.shared) this.#buffers.giveBack(sent.shared);
    }
    this.#sent.clear();
  }

  /** A batch the worker built and queued in its store: those it could not build are dropped. */
  #taken(sent: Sent, queued: string[], failures: [string, string][]): void {
    for (const token of queued) this.#inWriter.add(token);
    if (queued.length === sent.tokens.length) return;
    const reasons = new Map(failures);
    for (const token of sent.tokens) {
      if (this.#inWriter.has(token)) continue;
      this.store.cancel(
        token,
        `A profile could not be built (${reasons.get(token) ?? 'no reason given'}), so it was dropped.`,
      );
    }
  }

  #deliver(sent: Sent, built: BuiltBatch): void {
    const delivered = new Set<string>();
    const entries: StoredEntry[] = [];
    let at = 0;
    built.summaries.forEach((summary, i) => {
      const length = built.lengths[i];
      entries.push({ json: Buffer.from(built.jsons, at, length), summary });
      delivered.add(summary.token);
      at += length;
    });
    this.store.writeBatch(entries);
    const reasons = new Map(built.failures);
    for (const token of sent.tokens) {
      if (delivered.has(token)) continue;
      this.store.cancel(
        token,
        `A profile could not be built (${reasons.get(token) ?? 'no reason given'}), so it was dropped.`,
      );
    }
  }
}
