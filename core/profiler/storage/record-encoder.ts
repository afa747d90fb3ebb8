import { Worker } from 'node:worker_threads';
import { DEFLATE_OPTIONS, encodeRecord, frameRecord } from './record-codec.js';

/** Turns profile JSON texts into records. encode() never rejects. */
export interface RecordEncoder {
  encode(jsons: string[]): Promise<Buffer[]>;
  close(): Promise<void>;
}

/** Compresses on the calling thread, inside the write batch. */
export function inlineEncoder(): RecordEncoder {
  return {
    encode: async (jsons) => jsons.map(encodeRecord),
    close: async () => {},
  };
}

// Plain JavaScript for an eval'd worker, so that it runs the same from the
// sources (tsx) and from dist/. It only deflates; framing stays in record-codec.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { deflateRawSync } = require('node:zlib');
parentPort.on('message', ({ id, jsons }) => {
  try {
    const payloads = jsons.map((json) => deflateRawSync(json, workerData));
    const packed = new Uint8Array(payloads.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of payloads) { packed.set(p, at); at += p.length; }
    parentPort.postMessage({ id, packed, lengths: payloads.map((p) => p.length) }, [packed.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Pending {
  jsons: string[];
  resolve: (records: Buffer[]) => void;
}

/**
 * Compresses in one worker thread, so that deflate (about 35 µs for a 200
 * profile, 80 µs for a 404) costs the event loop nothing; the main thread only
 * frames the payloads. The worker is started at the first batch and keeps the
 * process alive only while a batch is in it. If it fails, encoding falls back
 * to this thread and `onFailure` is told once.
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
    for (const { jsons, resolve } of pending.values()) resolve(jsons.map(encodeRecord));
    pending.clear();
    void worker?.terminate();
    worker = null;
  };

  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: DEFLATE_OPTIONS });
    started.on('message', (message: { id: number; packed?: Uint8Array; lengths?: number[]; error?: string }) => {
      const job = pending.get(message.id);
      if (!job) return;
      pending.delete(message.id);
      if (pending.size === 0) started.unref();
      if (message.error || !message.packed || !message.lengths) {
        job.resolve(job.jsons.map(encodeRecord));
        return;
      }
      const { packed } = message;
      let at = 0;
      job.resolve(message.lengths.map((length) => {
        const record = frameRecord(packed.subarray(at, at + length));
        at += length;
        return record;
      }));
    });
    started.on('error', (error) => fail(error.message));
    started.on('exit', (code) => {
      if (worker === started && !failed) fail(`it exited with code ${code}`);
    });
    started.unref();
    return started;
  };

  return {
    encode(jsons) {
      if (failed) return Promise.resolve(jsons.map(encodeRecord));
      try {
        worker ??= start();
      } catch (error) {
        fail((error as Error).message);
        return Promise.resolve(jsons.map(encodeRecord));
      }
      const id = nextId++;
      return new Promise<Buffer[]>((resolve) => {
        pending.set(id, { jsons, resolve });
        worker!.ref();
        worker!.postMessage({ id, jsons });
      });
    },
    async close() {
      for (const { jsons, resolve } of pending.values()) resolve(jsons.map(encodeRecord));
      pending.clear();
      const stopping = worker;
      worker = null;
      if (stopping) await stopping.terminate();
    },
  };
}
