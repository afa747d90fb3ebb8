import { Worker } from 'node:worker_threads';
import { blockText, DEFLATE_OPTIONS, encodeBlock, frameBlock, sharedLines, type SharedRange } from './record-codec.js';

/** Turns the UTF-8 JSON texts of a few profiles into one block record. encode() never rejects. */
export interface RecordEncoder {
  encode(jsons: Buffer[]): Promise<Buffer>;
  close(): Promise<void>;
}

/** Compresses on the calling thread, inside the write batch. */
export function inlineEncoder(): RecordEncoder {
  return {
    encode: async (jsons) => encodeBlock(jsons),
    close: async () => {},
  };
}

// Plain JavaScript for an eval'd worker, so that it runs the same from the
// sources (tsx) and from dist/. It only deflates; framing stays in record-codec.
// A message holds the block texts one turn of the writer's loop made: each a
// range of a shared buffer, read in place, or bytes of its own. The reply packs
// the payloads end to end in one transferred buffer; a length of -1 says that
// block failed (the writer then encodes it itself).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { deflateRawSync } = require('node:zlib');
parentPort.on('message', ({ id, blocks }) => {
  const payloads = [];
  let size = 0;
  for (const block of blocks) {
    try {
      const text = block instanceof Uint8Array ? block : Buffer.from(block.buffer, block.offset, block.length);
      const payload = deflateRawSync(text, workerData);
      payloads.push(payload);
      size += payload.length;
    } catch {
      payloads.push(null);
    }
  }
  const packed = new Uint8Array(size);
  const lengths = [];
  let at = 0;
  for (const payload of payloads) {
    if (payload === null) {
      lengths.push(-1);
      continue;
    }
    packed.set(payload, at);
    at += payload.length;
    lengths.push(payload.length);
  }
  parentPort.postMessage({ id, packed, lengths }, [packed.buffer]);
});
`;

interface Job {
  /** kept to encode on this thread should the worker fail */
  jsons: Buffer[];
  resolve: (record: Buffer) => void;
}

interface Reply {
  id: number;
  packed: Uint8Array;
  lengths: number[];
}

/**
 * Compresses in one worker thread, so that deflate (about 10 µs a profile in
 * blocks of 13 to 32) costs the calling thread nothing; that thread only frames the
 * payloads. The blocks asked for in one turn go in one message, and the texts
 * Utf8Slab wrote (a shared buffer) are not copied: the worker reads them in place.
 * The worker is started at the first batch and keeps the
 * process alive only while a batch is in it. If it fails, encoding falls back
 * to this thread and `onFailure` is told once. `eager`: the worker starts at
 * once, and blocks are compressed on this thread until it runs (a thread that
 * is not the event loop's, for which the first profiles' latency matters more).
 */
export function workerEncoder(onFailure: (message: string) => void, eager = false): RecordEncoder {
  let worker: Worker | null = null;
  let online = !eager;
  let failed = false;
  let nextId = 0;
  const pending = new Map<number, Job[]>();
  /** blocks asked for in this turn, sent together at its end */
  let outgoing: Job[] = [];

  const encodeHere = (jobs: Iterable<Job>): void => {
    for (const { jsons, resolve } of jobs) resolve(encodeBlock(jsons));
  };

  const fail = (why: string) => {
    if (failed) return;
    failed = true;
    onFailure(`The profile compression worker failed (${why}): compressing on the main thread from now on.`);
    for (const jobs of pending.values()) encodeHere(jobs);
    pending.clear();
    void worker?.terminate();
    worker = null;
  };

  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: DEFLATE_OPTIONS });
    started.on('message', ({ id, packed, lengths }: Reply) => {
      const jobs = pending.get(id);
      if (!jobs) return;
      pending.delete(id);
      if (pending.size === 0 && outgoing.length === 0) started.unref();
      let at = 0;
      jobs.forEach((job, i) => {
        const length = lengths[i] ?? -1;
        if (length < 0) return job.resolve(encodeBlock(job.jsons));
        job.resolve(frameBlock(packed.subarray(at, at + length)));
        at += length;
      });
    });
    started.on('online', () => { online = true; });
    started.on('error', (error) => fail(error.message));
    started.on('exit', (code) => {
      if (worker === started && !failed) fail(`it exited with code ${code}`);
    });
    started.unref();
    return started;
  };

  const send = (): void => {
    const jobs = outgoing;
    outgoing = [];
    if (jobs.length === 0) return;
    if (failed || !worker) return encodeHere(jobs);
    const id = nextId++;
    pending.set(id, jobs);
    const transfer: ArrayBuffer[] = [];
    const blocks = jobs.map(({ jsons }): SharedRange | Buffer => {
      const lines = sharedLines(jsons);
      if (lines) return lines;
      const text = blockText(jsons);
      transfer.push(text.buffer as ArrayBuffer);
      return text;
    });
    worker.postMessage({ id, blocks }, transfer);
  };

  if (eager) {
    try {
      worker = start();
    } catch (error) {
      fail((error as Error).message);
    }
  }

  return {
    encode(jsons) {
      if (failed) return Promise.resolve(encodeBlock(jsons));
      try {
        worker ??= start();
      } catch (error) {
        fail((error as Error).message);
        return Promise.resolve(encodeBlock(jsons));
      }
      if (!online) return Promise.resolve(encodeBlock(jsons));
      return new Promise<Buffer>((resolve) => {
        if (outgoing.length === 0) {
          worker!.ref();
          queueMicrotask(send);
        }
        outgoing.push({ jsons, resolve });
      });
    },
    async close() {
      encodeHere(outgoing);
      outgoing = [];
      for (const jobs of pending.values()) encodeHere(jobs);
      pending.clear();
      const stopping = worker;
      worker = null;
      if (stopping) await stopping.terminate();
    },
  };
}
