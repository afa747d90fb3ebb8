import {
  appendFileSync,
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { appendFile, open } from 'node:fs/promises';
import type { Profile, ProfileSummary } from '../profile.js';
import { formatRecordLine, formatSealLine } from './index-line.js';
import type { StoredEntry, WrittenReport } from './profile-storage.js';
import type { Likeness } from './entry-patch.js';
import { BLOCK_BYTES, BLOCK_PROFILES, BLOCK_SLOTS } from './record-codec.js';
import type { RecordEncoder } from './record-encoder.js';
import { readStoredEntry } from './stored-profile-reader.js';
import type { SegmentCatalog, SegmentState } from './segment-catalog.js';
import {
  errorCode,
  idxPath,
  isWriting,
  logPath,
  makeStoreDir,
  markWriting,
  segmentName,
  STORE_FILE_MODE,
} from './store-files.js';

export interface WriterOptions {
  encoder: RecordEncoder;
  capacity: { profiles: number; bytes: number };
  warn: (message: string) => void;
  /**
   * After each batch: the tokens now on disk and indexed, and those dropped and why. Without it,
   * the reason of a drop is warned of here.
   */
  onWritten?: (report: WrittenReport) => void;
}

/**
 * A queued profile: its stored form's JSON as UTF-8 bytes, and its summary. Bytes, not a string nor
 * the profile's objects: under load a profile waits long enough for the garbage collector to copy
 * it twice and move it to the old generation, whose collections then cost more than the request;
 * a Buffer's bytes live outside the JS heap and are never copied.
 */
type Queued = StoredEntry;

/** One block record and the summaries of its profiles, by slot. */
interface Encoded {
  summaries: ProfileSummary[];
  record: Buffer;
}

/** Profiles encoded per turn of the event loop: requests get served between batches. */
const BATCH = 128;
/**
 * How long the first queued profile waits for others: a batch's appends, index
 * lines and retention check cost the same for one profile as for a hundred, and
 * a block compresses better full. Queued profiles are readable from memory.
 */
const GATHER_MS = 10;

/**
 * Appends synchronously: a batch is one write to the page cache (well under a
 * millisecond for a thousand records), while an asynchronous append costs
 * several turns of an event loop that is busy serving, and the queue would
 * fill meanwhile. Returns the offset the bytes were written at. A write that
 * fails part way (ENOSPC) is undone: the log keeps no part of the batch.
 */
function appendLogSync(path: string, bytes: Buffer): number {
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND);
  try {
    const { size } = fstatSync(fd);
    try {
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (error) {
      undoAppend(() => ftruncateSync(fd, size));
      throw error;
    }
    return size;
  } finally {
    closeSync(fd);
  }
}

/** Best effort: the error that made the append fail is the one to report. */
function undoAppend(truncate: () => void): void {
  try {
    truncate();
  } catch {
    // A part left behind is skipped as damage when the segment is next recovered.
  }
}

/**
 * How many of the entries from `first` on go in one block: at most BLOCK_PROFILES of them kept whole
 * and BLOCK_BYTES of their bytes (at least one), and at most `room` (what the segment still holds) and
 * BLOCK_SLOTS in all. An entry like an earlier one of the block (`likes`) is kept as its change from it,
 * a hundred-odd bytes outside what is compressed: the block does not count it as kept whole.
 */
function blockLength(
  entries: readonly Buffer[],
  likes: readonly (Likeness | undefined)[],
  first: number,
  room: number,
): number {
  const most = Math.min(BLOCK_SLOTS, entries.length - first, room);
  const inBlock = new Set<Uint8Array>([entries[first]]);
  let whole = 1;
  let bytes = entries[first].length;
  let n = 1;
  for (; n < most; n++) {
    const entry = entries[first + n];
    const base = likes[first + n]?.base;
    if (base === undefined || !inBlock.has(base)) {
      if (whole >= BLOCK_PROFILES || bytes + entry.length > BLOCK_BYTES) break;
      whole++;
      bytes += entry.length;
    }
    inBlock.add(entry);
  }
  return n;
}

/**
 * The write queue and this process's own segment (its bound is the hand-off's). A batch, GATHER_MS
 * after the first entry queued, compresses, then makes one append to the log and one to the index,
 * in order, off the response path.
 */
export class SegmentWriter {
  /** called after each batch reached the disk (or failed to): the owner enforces retention there */
  afterAppend: () => void = () => {};
  #queue: Queued[] = [];
  /** queued, being encoded or being written: readable from memory until indexed */
  #waiting = new Map<string, Queued>();
  #scheduled = false;
  /** blocks handed to the encoder, in order, not yet appended */
  #encoding: { summaries: ProfileSummary[]; record: Promise<Buffer> }[] = [];
  #appendScheduled = false;
  /**
   * Profiles the blocks encoded so far put in the segment being filled: a block is cut where the
   * segment will be full, so that segments hold their capacity exactly and retention stays precise.
   */
  #planned = 0;
  #chain: Promise<void> = Promise.resolve();
  #active: SegmentState | null = null;
  #closing: Promise<void> | null = null;
  #onWritten: ((report: WrittenReport) => void) | undefined;

  constructor(
    private readonly catalog: SegmentCatalog,
    private readonly options: WriterOptions,
  ) {
    this.#onWritten = options.onWritten;
  }

  /** From now on each batch's report goes to `listener` (see WriterOptions.onWritten). */
  reportTo(listener: (report: WrittenReport) => void): void {
    this.#onWritten = listener;
  }

  get active(): SegmentState | null {
    return this.#active;
  }

  get queued(): number {
    return this.#waiting.size;
  }

  has(token: string): boolean {
    return this.#waiting.has(token);
  }

  /** A profile not yet indexed, read back as a stored one would be. */
  get(token: string): Profile | undefined {
    const queued = this.#waiting.get(token);
    if (queued === undefined) return undefined;
    const read = readStoredEntry(queued.json);
    if (!read.ok) throw new Error(`A profile waiting to be written cannot be read back: ${read.problem}.`);
    return read.profile;
  }

  *waiting(): IterableIterator<ProfileSummary> {
    for (const queued of this.#waiting.values()) yield queued.summary;
  }

  /** Queues the entries; after close() they are dropped and reported. */
  writeBatch(entries: readonly StoredEntry[]): void {
    if (this.#closing) {
      this.#report({
        stored: [],
        dropped: entries.map((entry) => entry.summary.token),
        warnings: [],
        dropReason: 'Profiles came after the profile store was closed, so they were dropped.',
      });
      return;
    }
    for (const entry of entries) this.#enqueue(entry);
  }

  #enqueue(queued: Queued): void {
    this.#waiting.set(queued.summary.token, queued);
    this.#queue.push(queued);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setTimeout(this.#encodeQueued, GATHER_MS);
    }
  }

  async flush(): Promise<void> {
    while (this.#queue.length > 0) this.#encodeQueued();
    await this.#chain;
  }

  /** Runs `work` between two appends, never during one. */
  exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.#chain.then(work);
    this.#chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** The next write starts a new segment (the current one was deleted or is being rebuilt). */
  detach(): void {
    if (this.#active) markWriting(this.catalog.dir, this.#active.name.base, false);
    this.#active = null;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.flush();
      if (this.#active) await this.exclusive(() => this.#seal(this.#active!));
      await this.options.encoder.close();
    })();
    return this.#closing;
  }

  readonly #encodeQueued = (): void => {
    this.#scheduled = false;
    const batch = this.#queue.splice(0, BATCH);
    if (this.#queue.length > 0) {
      this.#scheduled = true;
      setImmediate(this.#encodeQueued);
    }
    const summaries = batch.map((queued) => queued.summary);
    const jsons = batch.map((queued) => queued.json);
    const likes = batch.map((queued) => queued.like);
    for (let i = 0; i < jsons.length; ) {
      const n = blockLength(jsons, likes, i, this.options.capacity.profiles - this.#planned);
      this.#encoding.push({
        summaries: summaries.slice(i, i + n),
        record: this.options.encoder.encode(jsons.slice(i, i + n), likes.slice(i, i + n)),
      });
      i += n;
      this.#planned = (this.#planned + n) % this.options.capacity.profiles;
    }
    if (jsons.length === 0) return;
    if (this.#appendScheduled) return;
    this.#appendScheduled = true;
    this.#chain = this.#chain.then(this.#appendEncoded);
  };

  /**
   * Appends every batch encoded so far in one go. Under load the batches that
   * arrive while one append is on the disk are all written by the next, so
   * the store keeps up with the requests instead of queueing one disk round
   * trip per turn of the event loop.
   */
  readonly #appendEncoded = async (): Promise<void> => {
    this.#appendScheduled = false;
    const jobs = this.#encoding.splice(0);
    const items: Encoded[] = [];
    for (const { summaries, record } of jobs) items.push({ summaries, record: await record });
    const stored: string[] = [];
    const failure: { reason?: string } = {};
    try {
      await this.#append(items, stored, failure);
    } catch (error) {
      for (const item of items) for (const summary of item.summaries) this.#waiting.delete(summary.token);
      this.options.warn(`The profile store failed after a write: ${(error as Error)?.stack ?? error}`);
    }
    const done = new Set(stored);
    const dropped: string[] = [];
    for (const item of items)
      for (const summary of item.summaries) if (!done.has(summary.token)) dropped.push(summary.token);
    this.#report({ stored, dropped, warnings: [], dropReason: failure.reason });
  };

  /** Tells the owner what a batch came to; without a listener, why profiles were dropped is warned of here. */
  #report(report: WrittenReport): void {
    if (this.#onWritten) this.#onWritten(report);
    else if (report.dropped.length > 0 && report.dropReason) this.options.warn(report.dropReason);
  }

  /** Appends the blocks; `stored` gets the tokens of those on disk, `failure` why the others are not. */
  async #append(items: Encoded[], stored: string[], failure: { reason?: string }): Promise<void> {
    let rest = items;
    try {
      while (rest.length > 0) {
        const segment = await this.#segment();
        const chunk = rest.slice(0, this.#room(segment, rest));
        const written = await this.#appendTo(segment, chunk);
        for (const item of chunk) for (const summary of item.summaries) stored.push(summary.token);
        rest = rest.slice(chunk.length);
        if (written.records >= this.options.capacity.profiles || written.logBytes >= this.options.capacity.bytes)
          await this.#seal(written);
      }
    } catch (error) {
      const lost = rest.reduce((n, item) => n + item.summaries.length, 0);
      failure.reason = `Could not store ${lost} profile${lost > 1 ? 's' : ''} in ${this.catalog.dir} (${(error as Error).message}), so ${lost > 1 ? 'they were' : 'it was'} dropped; serving goes on.`;
      if (this.#active && this.#active.logBytes > 0) this.detach();
    } finally {
      for (const item of items) for (const summary of item.summaries) this.#waiting.delete(summary.token);
    }
    this.afterAppend();
  }

  /** How many of the blocks `items` still fit in the segment's capacity; at least one. */
  #room(segment: SegmentState, items: readonly Encoded[]): number {
    const { profiles, bytes } = this.options.capacity;
    let size = segment.logBytes;
    let count = segment.records;
    let n = 0;
    while (n < items.length && count < profiles && size < bytes) {
      size += items[n].record.length;
      count += items[n++].summaries.length;
    }
    return Math.max(1, n);
  }

  /** Appends the records to the log, then their lines to the index; a vanished segment or folder gets a fresh segment. */
  async #appendTo(segment: SegmentState, chunk: Encoded[]): Promise<SegmentState> {
    const bytes = chunk.length === 1 ? chunk[0].record : Buffer.concat(chunk.map((item) => item.record));
    let base: number;
    try {
      base = appendLogSync(logPath(this.catalog.dir, segment.name.base), bytes);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      this.detach();
      segment = await this.#segment();
      base = appendLogSync(logPath(this.catalog.dir, segment.name.base), bytes);
    }
    let offset = base;
    let lines = '';
    let profiles = 0;
    for (const item of chunk) {
      item.summaries.forEach((summary, slot) => {
        lines += formatRecordLine(summary, offset, item.record.length, slot);
      });
      offset += item.record.length;
      profiles += item.summaries.length;
    }
    const idx = idxPath(this.catalog.dir, segment.name.base);
    const text = Buffer.from(lines);
    try {
      appendFileSync(idx, text, { mode: STORE_FILE_MODE });
    } catch (error) {
      // The records were dropped: neither file keeps a part of the batch, so the index still describes the log exactly.
      undoAppend(() => truncateSync(logPath(this.catalog.dir, segment.name.base), base));
      undoAppend(() => truncateSync(idx, segment.idxBytes));
      throw error;
    }
    segment.records += profiles;
    segment.logBytes = base + bytes.length;
    segment.idxBytes += text.length;
    offset = base;
    for (const item of chunk) {
      item.summaries.forEach((summary, slot) =>
        this.catalog.indexRecord(summary, segment.name.base, offset, item.record.length, slot),
      );
      offset += item.record.length;
    }
    return segment;
  }

  async #segment(): Promise<SegmentState> {
    if (this.#active && this.catalog.segments.get(this.#active.name.base) === this.#active) return this.#active;
    this.detach();
    let id = 1;
    let recreated = false;
    for (const segment of this.catalog.segments.values()) id = Math.max(id, segment.name.id + 1);
    for (let attempt = 0; attempt < 100; attempt++, id++) {
      const name = segmentName(id, process.pid);
      if (isWriting(this.catalog.dir, name.base)) continue;
      // Registered before the file exists, so that a refresh meanwhile knows whose it is.
      const segment: SegmentState = {
        name,
        own: true,
        sealed: false,
        records: 0,
        logBytes: 0,
        idxBytes: 0,
        idxIno: 0n,
      };
      this.catalog.register(segment);
      markWriting(this.catalog.dir, name.base, true);
      try {
        await (await open(logPath(this.catalog.dir, name.base), 'wx', STORE_FILE_MODE)).close();
      } catch (error) {
        this.catalog.segments.delete(name.base);
        markWriting(this.catalog.dir, name.base, false);
        if (errorCode(error) === 'EEXIST') continue;
        if (errorCode(error) !== 'ENOENT' || recreated) throw error;
        recreated = true;
        makeStoreDir(this.catalog.dir);
        this.options.warn(`The profile store folder ${this.catalog.dir} was removed while in use: created it again.`);
        this.catalog.refresh();
        id--;
        continue;
      }
      this.#active = segment;
      return segment;
    }
    throw new Error(`no free segment name in ${this.catalog.dir}`);
  }

  async #seal(segment: SegmentState): Promise<void> {
    if (this.#active === segment) this.#active = null;
    if (segment.sealed) return;
    segment.sealed = true;
    markWriting(this.catalog.dir, segment.name.base, false);
    const line = formatSealLine(segment.logBytes);
    try {
      await appendFile(idxPath(this.catalog.dir, segment.name.base), line, { mode: STORE_FILE_MODE });
      segment.idxBytes += Buffer.byteLength(line);
    } catch {
      // An unsealed segment is sealed by the next process that opens the store.
    }
  }
}
