import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * The store folder holds, per segment, `<id>-<pid>.log` (the records, each a
 * block of profiles, record-codec.ts) and `<id>-<pid>.idx` (one line per
 * profile, index-line.ts), plus `cutoff.json` (set by an exact prune). The pid names the one process that appends to the segment, so every
 * writer knows its offsets without locks; readers use it to tell a live
 * writer's segment from one left by a crash.
 */
const SEGMENT_FILE = /^(\d{6,})-(\d+)\.(log|idx)$/;
/** `.<file>.<pid>-<thread id>.tmp`, or `.<file>.<pid>.tmp` as earlier versions named them */
const TEMP_FILE = /^\..+\.(\d+)(?:-(\d+))?\.tmp$/;

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

/** The process (and thread, when named) that wrote a temporary file, or null for any other file. */
export function tempFileOwner(file: string): { pid: number; thread: number | null } | null {
  const m = TEMP_FILE.exec(file);
  return m ? { pid: Number(m[1]), thread: m[2] === undefined ? null : Number(m[2]) } : null;
}

/**
 * Whether a temporary file was left behind: its process is gone, or it is this thread's own (a thread
 * writes and renames one within a call). Another thread of this process may be between the two.
 */
export function isStaleTempFile(
  owner: { pid: number; thread: number | null },
  alive: (pid: number) => boolean,
): boolean {
  if (owner.pid !== process.pid) return !alive(owner.pid);
  return owner.thread === null || owner.thread === threadId;
}

export function compareSegments(a: SegmentName, b: SegmentName): number {
  return a.id - b.id || a.pid - b.pid;
}

export const logPath = (dir: string, base: string): string => join(dir, `${base}.log`);
export const idxPath = (dir: string, base: string): string => join(dir, `${base}.idx`);

/** Segments some store instance of this thread appends to, by folder and name. */
const writing = new Set<string>();

/**
 * The segments this process's threads append to, as [id, thread + 1, folder hash] slots in memory
 * every thread shares: the profiler worker writes the store too, and the main thread must know
 * its segment alive (module state is per thread). A thread gets the main thread's table with
 * adoptSharedWriting(). A slot whose id is 0 is free; -1 is being filled.
 */
const SHARED_SLOTS = 256;
const SLOT = 3;
let shared = new Int32Array(new SharedArrayBuffer(SHARED_SLOTS * SLOT * Int32Array.BYTES_PER_ELEMENT));

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
  for (let i = 0; i < shared.length; i += SLOT) {
    if (Atomics.load(shared, i + 1) === thread + 1) Atomics.store(shared, i, 0);
  }
}

/** FNV-1a of the folder's absolute path: a slot names its folder in one number. */
function folderHash(dir: string): number {
  let hash = 0x811c9dc5;
  for (const char of resolve(dir)) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash | 0;
}

const segmentId = (base: string): number => Number(base.slice(0, base.indexOf('-')));

/** The slot of segment `id` of the folder, held by `thread` or by any thread when not given; -1 when none. */
function sharedSlot(folder: number, id: number, thread?: number): number {
  for (let i = 0; i < shared.length; i += SLOT) {
    if (
      Atomics.load(shared, i) === id &&
      Atomics.load(shared, i + 2) === folder &&
      (thread === undefined || Atomics.load(shared, i + 1) === thread + 1)
    )
      return i;
  }
  return -1;
}

/** Whether a thread of this process appends to the segment `base` (one of this process's names) of `dir`. */
export function isWriting(dir: string, base: string): boolean {
  return writing.has(join(resolve(dir), base)) || sharedSlot(folderHash(dir), segmentId(base)) >= 0;
}

export function markWriting(dir: string, base: string, on: boolean): void {
  const id = segmentId(base);
  const folder = folderHash(dir);
  if (on) {
    writing.add(join(resolve(dir), base));
    for (let i = 0; i < shared.length; i += SLOT) {
      if (Atomics.compareExchange(shared, i, 0, -1) !== 0) continue;
      Atomics.store(shared, i + 1, threadId + 1);
      Atomics.store(shared, i + 2, folder);
      Atomics.store(shared, i, id);
      break;
    }
  } else {
    writing.delete(join(resolve(dir), base));
    const i = sharedSlot(folder, id, threadId);
    if (i >= 0) Atomics.store(shared, i, 0);
  }
}

/** Whether a writer may still append to the segment of `dir`: one a thread of this process has open, or another live process's. */
export function isWriterAlive(dir: string, name: SegmentName): boolean {
  return name.pid === process.pid ? isWriting(dir, name.base) : isProcessAlive(name.pid);
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
  // the thread's id too: the profiler worker writes the store from this process as well
  const temp = join(dir, `.${file}.${process.pid}-${threadId}.tmp`);
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

/** `length` bytes of the open file `fd` from `position` (fewer if it ends first). */
export function readAtSync(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(Math.max(0, length));
  let done = 0;
  while (done < length) {
    const n = readSync(fd, bytes, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return bytes.subarray(0, done);
}

/** Up to `length` bytes at `offset`; fewer when the file ends first. */
export function readRangeSync(path: string, offset: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    return readAtSync(fd, offset, length);
  } finally {
    closeSync(fd);
  }
}
