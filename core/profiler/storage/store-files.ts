import { chmodSync, closeSync, mkdirSync, openSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * The store folder holds, per segment, `<id>-<pid>.log` (the records, each a
 * block of profiles, record-codec.ts) and `<id>-<pid>.idx` (one line per
 * profile, index-line.ts), plus `cutoff.json` (set by an exact prune). The pid names the one process that appends to the segment, so every
 * writer knows its offsets without locks; readers use it to tell a live
 * writer's segment from one left by a crash.
 */
const SEGMENT_FILE = /^(\d{6,})-(\d+)\.(log|idx)$/;
const TEMP_FILE = /^\..+\.(\d+)\.tmp$/;

export const CUTOFF_FILE = 'cutoff.json';

/** Profiles hold request headers, bodies and logs: only the user who runs the server may read them. */
export const STORE_DIR_MODE = 0o700;
export const STORE_FILE_MODE = 0o600;

/**
 * Makes the store folder (owner only), or tightens one an older version made readable by
 * others, when this user owns it. The mode given to mkdir is cut by the umask; chmod is not.
 */
export function makeStoreDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: STORE_DIR_MODE });
  const st = statSync(dir);
  if ((st.mode & 0o777) !== STORE_DIR_MODE && st.uid === process.getuid?.()) chmodSync(dir, STORE_DIR_MODE);
}

export interface SegmentName {
  id: number;
  pid: number;
  /** "000012-4242" */
  base: string;
}

export function segmentName(id: number, pid: number): SegmentName {
  return { id, pid, base: `${String(id).padStart(6, '0')}-${pid}` };
}

export function parseSegmentFile(file: string): (SegmentName & { ext: 'log' | 'idx' }) | null {
  const m = SEGMENT_FILE.exec(file);
  return m ? { id: Number(m[1]), pid: Number(m[2]), base: `${m[1]}-${m[2]}`, ext: m[3] as 'log' | 'idx' } : null;
}

/** The pid of the process that wrote a temporary file, or null for any other file. */
export function tempFileOwner(file: string): number | null {
  const m = TEMP_FILE.exec(file);
  return m ? Number(m[1]) : null;
}

export function compareSegments(a: SegmentName, b: SegmentName): number {
  return a.id - b.id || a.pid - b.pid;
}

export const logPath = (dir: string, base: string): string => join(dir, `${base}.log`);
export const idxPath = (dir: string, base: string): string => join(dir, `${base}.idx`);

/** Segments some store instance of this thread appends to. */
const writing = new Set<string>();

/**
 * Segment ids this process's threads append to, as [id, threadId] pairs in memory every thread
 * shares: the profiler worker writes the store too, and the main thread must know its segment
 * alive (module state is per thread). A thread gets the main thread's table with adoptSharedWriting().
 */
const SHARED_SLOTS = 1024;
let shared = new Int32Array(new SharedArrayBuffer(SHARED_SLOTS * 2 * Int32Array.BYTES_PER_ELEMENT));

/** The table to hand to a thread that will write a store of this process. */
export function sharedWriting(): SharedArrayBuffer {
  return shared.buffer as SharedArrayBuffer;
}

/** Called in a worker, before it opens a store for writing. */
export function adoptSharedWriting(table: SharedArrayBuffer): void {
  shared = new Int32Array(table);
}

/** Forgets the segments a thread that stopped (or failed) had left open. */
export function releaseSharedWriting(thread: number): void {
  for (let i = 0; i < shared.length; i += 2) {
    if (Atomics.load(shared, i + 1) === thread + 1) Atomics.store(shared, i, 0);
  }
}

/** The slot of segment `id`, held by `thread` or by any thread when not given; -1 when none. */
function sharedSlot(id: number, thread?: number): number {
  for (let i = 0; i < shared.length; i += 2) {
    if (Atomics.load(shared, i) === id && (thread === undefined || Atomics.load(shared, i + 1) === thread + 1)) return i;
  }
  return -1;
}

/** Whether a thread of this process appends to the segment `base` (one of this process's names). */
export function isWriting(base: string): boolean {
  return writing.has(base) || sharedSlot(Number(base.slice(0, base.indexOf('-')))) >= 0;
}

export function markWriting(base: string, on: boolean): void {
  const id = Number(base.slice(0, base.indexOf('-')));
  if (on) {
    writing.add(base);
    for (let i = 0; i < shared.length; i += 2) {
      if (Atomics.compareExchange(shared, i, 0, id) === 0) {
        Atomics.store(shared, i + 1, threadId + 1);
        break;
      }
    }
  } else {
    writing.delete(base);
    const i = sharedSlot(id, threadId);
    if (i >= 0) Atomics.store(shared, i, 0);
  }
}

/** Whether a writer may still append to the segment: one a thread of this process has open, or another live process's. */
export function isWriterAlive(name: SegmentName): boolean {
  return name.pid === process.pid ? writing.has(name.base) || sharedSlot(name.id) >= 0 : isProcessAlive(name.pid);
}

/** Whether a process with this pid runs (EPERM: it does, as another user). */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Readers see the old file or the new one, never half of it. */
export function writeFileAtomicSync(dir: string, file: string, data: string | Buffer): void {
  const temp = join(dir, `.${file}.${process.pid}.tmp`);
  writeFileSync(temp, data, { mode: STORE_FILE_MODE });
  renameSync(temp, join(dir, file));
}

export function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? 'EUNKNOWN';
}

/** Up to `length` bytes at `offset`; fewer when the file ends first. */
export function readRangeSync(path: string, offset: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, bytes, done, length - done, offset + done);
      if (n === 0) break;
      done += n;
    }
    return bytes.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}
