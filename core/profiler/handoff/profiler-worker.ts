import { parentPort } from 'node:worker_threads';
import type { StoreWriterSpec, WrittenReport } from '../storage/profile-storage.js';
import { openStoreWriter, type StoreWriter } from '../storage/store-writer.js';
import { buildRecordedProfiles, storedEntries, type BuiltBatch, type RouteTableMessage } from './build-batch.js';
import { RouteTables } from './route-tables.js';
import { nameThisThread, PROFILER_THREAD_NAME } from '../thread-name.js';

export type ToProfilerWorker =
  | RouteTableMessage
  | { type: 'store'; spec: StoreWriterSpec }
  /**
   * The batch is the first `length` bytes of `records`, or of the shared buffer numbered `buffer`:
   * a shared buffer comes with the first batch it carries here, and later ones name it.
   */
  | { type: 'batch'; id: number; records?: ArrayBuffer | SharedArrayBuffer; buffer?: number; length: number }
  | { type: 'close' };

export type FromProfilerWorker =
  | { type: 'ready' }
  | ({ type: 'built'; id: number } & BuiltBatch)
  | { type: 'taken'; id: number; queued: string[]; failures: [token: string, reason: string][] }
  | { type: 'written'; report: WrittenReport }
  | { type: 'store-failed'; message: string }
  | { type: 'closed' };

/**
 * The profiler's worker thread: it turns the request records the main thread hands over into
 * stored profiles (one collector per panel, redaction, the stored form's JSON) and, when the main
 * thread sent the store's writer spec, writes them into the store itself and reports which are
 * stored; otherwise it sends back their bytes and summaries for the main thread's store.
 */
const tables = new RouteTables();
const names: string[] = [];
let writer: StoreWriter | null = null;
/** messages are handled in order, opening the store included */
let chain: Promise<void> = Promise.resolve();

/** the shared buffers batches come in, by number */
const sharedBuffers = new Map<number, SharedArrayBuffer>();

function recordsOf(batch: Extract<ToProfilerWorker, { type: 'batch' }>): ArrayBuffer | SharedArrayBuffer {
  if (batch.buffer === undefined) return batch.records!;
  if (batch.records !== undefined) sharedBuffers.set(batch.buffer, batch.records as SharedArrayBuffer);
  const records = sharedBuffers.get(batch.buffer);
  if (records === undefined) throw new Error(`batch ${batch.id} names shared buffer ${batch.buffer}, never sent`);
  return records;
}

const post = (message: FromProfilerWorker, transfer: ArrayBuffer[] = []): void =>
  parentPort!.postMessage(message, transfer);

async function handle(message: ToProfilerWorker): Promise<void> {
  switch (message.type) {
    case 'routes':
      tables.set(message.id, message.routes);
      return;
    case 'store':
      try {
        writer = await openStoreWriter(message.spec, (report) => post({ type: 'written', report }));
      } catch (error) {
        post({ type: 'store-failed', message: (error as Error)?.message ?? String(error) });
      }
      return;
    case 'batch': {
      const built = buildRecordedProfiles(new Uint8Array(recordsOf(message), 0, message.length), tables, names);
      if (!writer) {
        const { likes: _, ...sent } = built;
        post({ type: 'built', id: message.id, ...sent, likes: [] }, [built.jsons]);
        return;
      }
      writer.writeBatch(storedEntries(built));
      post({
        type: 'taken',
        id: message.id,
        queued: built.summaries.map((summary) => summary.token),
        failures: built.failures,
      });
      return;
    }
    case 'close':
      await writer?.close();
      writer = null;
      post({ type: 'closed' });
  }
}

parentPort?.on('message', (message: ToProfilerWorker) => {
  chain = chain.then(() => handle(message));
});
nameThisThread(PROFILER_THREAD_NAME);
post({ type: 'ready' });
