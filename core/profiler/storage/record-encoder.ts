import { Worker } from 'node:worker_threads';
import { blockSlots, COMPRESSION_OPTIONS, compressionFor, encodeBlock, frameBlock } from './record-codec.js';
import { COMPRESSION_THREAD_NAME } from '../thread-name.js';
import type { BlockCompression } from './stored-profile-reader.js';
import type { Likeness } from './entry-patch.js';

/** Turns the stored entries of a few profiles (stored-profile-reader.ts) into one block record. encode() never rejects. */
export interface RecordEncoder {
  /** `likes`: how entries are like earlier ones (entry-patch.ts); an encoder may leave them out and keep every entry whole */
  encode(jsons: Buffer[], likes?: readonly (Likeness | undefined)[]): Promise<Buffer>;
  close(): Promise<void>;
}

/** Compresses on the calling thread, inside the write batch. */
export function inlineEncoder(): RecordEncoder {
  return {
    encode: async (jsons, likes) => encodeBlock(jsons, likes),
    close: async () => {},
  };
}

// Plain JavaScript for an eval'd worker, so that it runs the same from the
// sources (tsx) and from dist/. It only compresses; framing stays in record-codec.
// The blocks of one write batch come in one message and go back in one.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { brotliCompressSync, deflateRawSync } = require('node:zlib');
try { require('node:fs').writeFileSync('/proc/thread-self/comm', '${COMPRESSION_THREAD_NAME}'); } catch {}
parentPort.on('message', ({ jobs }) => {
  const results = [];
  const transfer = [];
  for (const { id, text, compression } of jobs) {
    try {
      const options = workerData[compression];
      const payload = compression === 'brotli' ? brotliCompressSync(text, options) : deflateRawSync(text, options);
      const packed = new Uint8Array(payload.length);
      packed.set(payload);
      results.push({ id, packed, compression });
      transfer.push(packed.buffer);
    } catch (error) {
      results.push({ id, error: String(error && error.message || error) });
    }
  }
  parentPort.postMessage({ results }, transfer);
});
`;

type EncodeResult = { id: number; packed?: Uint8Array; compression?: BlockCompression; error?: string };

interface Pending {
  /** kept to encode on this thread should the worker fail: the text it was sent is moved there */
  jsons: Buffer[];
  resolve: (record: Buffer) => void;
}

/**
 * Compresses in one worker thread, so that compressing costs the event loop
 * nothing; the main thread only frames the payload. The worker is started at
 * the first batch and keeps the process alive only while a batch is in it. If
 * it fails, encoding falls back to this thread and `onFailure` is told once.
 */
export function workerEncoder(onFailure: (message: string) => void): RecordEncoder {
  let worker: Worker | null = null;
  let failed = false;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const fail = (why: string) => {
    if (failed) return;
    failed = true;
    onFailure(`The profile compression worker failed (${why}): compressing on the main thread from now on.`);
    for (const { jsons, resolve } of pending.values()) resolve(encodeBlock(jsons));
    pending.clear();
    void worker?.terminate();
    worker = null;
  };

  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: COMPRESSION_OPTIONS });
    started.on('message', ({ results }: { results: EncodeResult[] }) => {
      for (const message of results) {
        const job = pending.get(message.id);
        if (!job) continue;
        pending.delete(message.id);
        job.resolve(
          message.error || !message.packed || !message.compression
            ? encodeBlock(job.jsons)
            : frameBlock(message.packed, message.compression),
        );
      }
      if (pending.size === 0) started.unref();
    });
    started.on('error', (error) => fail(error.message));
    started.on('exit', (code) => {
      if (worker === started && !failed) fail(`it exited with code ${code}`);
    });
    started.unref();
    return started;
  };

  /** The blocks asked for in this turn of the event loop (a write batch's), posted together: one message, one wake-up of the worker. */
  let queued: { id: number; text: Buffer; compression: BlockCompression }[] = [];
  const send = (): void => {
    const jobs = queued;
    queued = [];
    // Failed or closed meanwhile: their jobs were encoded here.
    if (worker === null || failed) return;
    worker.postMessage(
      { jobs },
      jobs.map((job) => job.text.buffer as ArrayBuffer),
    );
  };

  return {
    encode(jsons) {
      if (failed) return Promise.resolve(encodeBlock(jsons));
      try {
        worker ??= start();
      } catch (error) {
        fail((error as Error).message);
        return Promise.resolve(encodeBlock(jsons));
      }
      const id = nextId++;
      return new Promise<Buffer>((resolve) => {
        pending.set(id, { jsons, resolve });
        worker!.ref();
        if (queued.length === 0) queueMicrotask(send);
        queued.push({ id, text: blockSlots(jsons), compression: compressionFor(jsons.length) });
      });
    },
    async close() {
      for (const { jsons, resolve } of pending.values()) resolve(encodeBlock(jsons));
      pending.clear();
      const stopping = worker;
      worker = null;
      if (stopping) await stopping.terminate();
    },
  };
}
