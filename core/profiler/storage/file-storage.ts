import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../errors.js';
import type { Profile, ProfileSummary, SearchQuery } from '../profile.js';
import { isValidToken } from '../token.js';
import type { ProfileStore, PruneOptions, StoredEntry } from './profile-storage.js';
import type { FileWriterSpec, StoreServing, StoreStats, WrittenReport } from './profile-storage.js';
import { decodeBlock, profileAt } from './record-codec.js';
import { DEFAULT_RETENTION, segmentCapacity, segmentsToDrop, type RetentionLimits } from './retention.js';
import { SegmentCatalog, type SegmentState } from './segment-catalog.js';
import { recoverSegment, rewriteIndex } from './segment-recovery.js';
import { inlineEncoder, workerEncoder } from './record-encoder.js';
import { SegmentWriter } from './segment-writer.js';
import {
  CUTOFF_FILE,
  errorCode,
  isWriterAlive,
  logPath,
  parseSegmentFile,
  readRangeSync,
  sharedWriting,
  unlinkIfPresent,
  writeFileAtomicSync,
} from './store-files.js';
import { compareKeys, type IndexEntry, type OrderKey } from './time-ordered-list.js';
import { summaryFilter } from './summary-filter.js';
import { queuedAndStored } from './queued-and-stored.js';
import { TokenBits, tokenNumber } from './token-bits.js';

export interface FileStorageOptions {
  dir: string;
  /** damaged files found, profiles dropped, a folder recreated; default: one line on stderr */
  onWarning?: (message: string) => void;
  /** default 10,000 */
  maxProfiles?: number;
  /** default 200 MB */
  maxBytes?: number;
  /** default 7 days */
  maxAgeMs?: number;
  /** make the folder if it is missing (default); false for commands that only read or remove, so that a mistyped --store creates nothing */
  create?: boolean;
  /**
   * compress in a thread of its own (default: the event loop's time is the requests') or in the write
   * batch, as the profiler worker does (a thread that serves no request: a second thread would cost more
   * in messages than it saves)
   */
  compressInWorker?: boolean;
  /**
   * false: a store that only writes (the profiler worker's): has() is never asked, so opening reads no
   * tokens ahead of the index, and nothing is read or listed, so its index only counts each segment's
   * profiles for retention (ProfileIndex countsOnly)
   */
  readsTokens?: boolean;
  /** after each batch written: the tokens stored, and those dropped and why (the hand-off counts them) */
  onWritten?: (report: WrittenReport) => void;
}

/**
 * How many profiles another thread may store before this one's index catches up with them unasked.
 * Reads catch up first, so the index is read from disk when someone looks, not at every batch
 * the profiler worker writes under load; meanwhile has() knows those tokens by their bits. The
 * bound keeps the tokens it holds far from the 16.7 million there are.
 */
const UNSEEN_REFRESH = 1 << 18;

const stderrWarning = (message: string): void => void process.stderr.write(`appkernel: warning: ${message}\n`);

/**
 * Opens (creating it if missing) a store folder of append-only segments, see
 * store-files.ts. Damaged or missing index files of segments no live process
 * writes are rebuilt from their records here, with a warning.
 */
export async function openFileStorage(options: FileStorageOptions): Promise<FileStorage> {
  const warn = options.onWarning ?? stderrWarning;
  const catalog = new SegmentCatalog(options.dir, warn, options.create ?? true, options.readsTokens === false);
  try {
    // Readers wait for the index; has() and writing need not.
    void catalog.loadInBackground({ tokens: options.readsTokens ?? true });
  } catch (error) {
    throw new AppError(
      'APP_ERR_PROFILER_STORE_CORRUPT',
      `The profile store ${options.dir} cannot be opened: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const limits: RetentionLimits = {
    maxProfiles: options.maxProfiles ?? DEFAULT_RETENTION.maxProfiles,
    maxBytes: options.maxBytes ?? DEFAULT_RETENTION.maxBytes,
    maxAgeMs: options.maxAgeMs ?? DEFAULT_RETENTION.maxAgeMs,
  };
  const encoder = options.compressInWorker === false ? inlineEncoder() : workerEncoder(warn);
  const storage = new FileStorage(
    catalog,
    new SegmentWriter(catalog, {
      encoder,
      capacity: segmentCapacity(limits),
      warn,
      onWritten: options.onWritten,
    }),
    limits,
    warn,
  );
  storage.handsOffWriting = true;
  return storage;
}

export class FileStorage implements ProfileStore, StoreServing {
  readonly #catalog: SegmentCatalog;
  readonly #writer: SegmentWriter;
  #lastBlock: { key: string; bytes: Buffer; entries: Buffer[] } | null = null;
  /** whether writerSpec() may hand the write side to another thread; set by openFileStorage */
  handsOffWriting = false;
  /** tokens another thread stored since this thread's index last caught up: has() knows them meanwhile */
  #storedUnseen = new TokenBits();

  constructor(
    catalog: SegmentCatalog,
    writer: SegmentWriter,
    readonly limits: RetentionLimits,
    private readonly warn: (message: string) => void,
  ) {
    this.#catalog = catalog;
    this.#writer = writer;
    writer.afterAppend = () => this.#enforceRetention();
  }

  get dir(): string {
    return this.#catalog.dir;
  }

  writeBatch(entries: readonly StoredEntry[]): void {
    this.#writer.writeBatch(entries);
  }

  has(token: string): boolean {
    const n = tokenNumber(token);
    return this.#writer.has(token) || (n >= 0 && this.#storedUnseen.has(n)) || this.#catalog.has(token);
  }

  /** The write side, for the profiler worker to open in its own thread (store-writer.ts). */
  writerSpec(): FileWriterSpec | null {
    if (!this.handsOffWriting) return null;
    return { kind: 'file', dir: this.dir, limits: { ...this.limits }, writing: sharedWriting() };
  }

  reportTo(listener: (report: WrittenReport) => void): void {
    this.#writer.reportTo(listener);
  }

  /** What the worker stored is found on disk from now on: has() knows it until the index catches up. */
  storedElsewhere(tokens: string[], _bytes: number): void {
    for (const token of tokens) {
      const n = tokenNumber(token);
      if (n >= 0) this.#storedUnseen.add(n);
    }
    if (this.#storedUnseen.size >= UNSEEN_REFRESH) this.#refresh();
  }

  /** Catches up with the segments other processes and threads write; not while the index loads (has() knows their tokens meanwhile). */
  #refresh(): void {
    if (this.#catalog.isLoading) return;
    this.#catalog.refresh();
    this.#storedUnseen.clear();
  }

  async read(token: string): Promise<Profile | null> {
    if (!isValidToken(token)) return null;
    const waiting = this.#writer.get(token);
    if (waiting) return waiting;
    await this.#catalog.loaded();
    this.#refresh();
    const entry = this.#catalog.index.get(token);
    if (!entry) return null;
    const entries = this.#readBlock(token, entry);
    if (!entries) return null;
    const decoded = profileAt(entries, entry.slot);
    if (!decoded.ok) throw corrupt(token, entry.segment, entry.offset, decoded.problem);
    if (decoded.profile.token !== token)
      throw corrupt(token, entry.segment, entry.offset, `the record there holds profile "${decoded.profile.token}"`);
    return decoded.profile;
  }

  /**
   * The stored entries of the block holding `entry`, null when its segment is gone. The last block
   * inflated is kept, as pages and the CLI read neighbours; it is reused only for the same bytes.
   */
  #readBlock(token: string, entry: IndexEntry): Buffer[] | null {
    let bytes: Buffer;
    try {
      bytes = readRangeSync(logPath(this.dir, entry.segment), entry.offset, entry.length);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw corrupt(token, entry.segment, entry.offset, `its segment cannot be read (${errorCode(error)})`, error);
    }
    if (bytes.length < entry.length) {
      // Cut short (a copy, a full disk): it may end before the record even starts.
      const problem =
        bytes.length === 0
          ? `the segment ends before the record starts (it holds ${segmentSize(logPath(this.dir, entry.segment))} bytes)`
          : `the segment ends ${entry.length - bytes.length} bytes before the end of the record`;
      throw corrupt(token, entry.segment, entry.offset, problem);
    }
    const key = `${entry.segment}:${entry.offset}`;
    if (this.#lastBlock?.key === key && this.#lastBlock.bytes.equals(bytes)) return this.#lastBlock.entries;
    const decoded = decodeBlock(bytes);
    if (!decoded.ok) throw corrupt(token, entry.segment, entry.offset, decoded.problem);
    this.#lastBlock = { key, bytes, entries: decoded.entries };
    return decoded.entries;
  }

  async search(query: SearchQuery): Promise<ProfileSummary[]> {
    await this.#catalog.loaded();
    this.#refresh();
    if (this.#writer.queued === 0) return this.#catalog.index.search(query);
    const offset = Math.max(0, Math.floor(query.offset ?? 0));
    const stored = this.#catalog.index.search({
      ...query,
      offset: 0,
      limit: offset + Math.max(0, Math.floor(query.limit)),
    });
    return queuedAndStored(this.#waitingMatches(query), stored, query);
  }

  async count(query: SearchQuery, atMost = Infinity): Promise<number> {
    await this.#catalog.loaded();
    this.#refresh();
    const stored = this.#catalog.index.count(query, atMost);
    // A walk that stopped says "more than atMost" as it is, queued matches or not.
    if (stored === atMost + 1) return stored;
    return stored + (this.#writer.queued === 0 ? 0 : this.#waitingMatches(query).length);
  }

  /** Queued profiles that match and are not in the index yet. */
  #waitingMatches(query: SearchQuery): ProfileSummary[] {
    const filter = summaryFilter(query);
    return [...this.#writer.waiting()].filter((s) => filter(s) && this.#catalog.index.get(s.token) === undefined);
  }

  /**
   * Exact: the newest `keep` stay, the rest (and those older than
   * `olderThanMs`) are gone from search and read at once. The removal is a
   * cutoff in the store order written to cutoff.json, which every process
   * applies; segments holding only removed profiles are deleted, the others
   * keep the bytes of removed profiles until retention drops them.
   */
  async prune(options: PruneOptions): Promise<number> {
    await this.#writer.flush();
    await this.#catalog.loaded();
    return this.#writer.exclusive(() => {
      this.#refresh();
      const index = this.#catalog.index;
      const keys: OrderKey[] = [];
      if (options.keep !== undefined) {
        const key = index.keyKeeping(Math.max(0, Math.floor(options.keep)));
        if (key) keys.push(key);
      }
      if (options.olderThanMs !== undefined) keys.push({ time: Date.now() - options.olderThanMs, token: '' });
      if (keys.length === 0) return 0;
      // A weaker prune must not overwrite an earlier, stronger cutoff: its profiles would come back.
      if (index.cutoff) keys.push(index.cutoff);
      const key = keys.reduce((a, b) => (compareKeys(a, b) >= 0 ? a : b));
      writeFileAtomicSync(this.dir, CUTOFF_FILE, JSON.stringify(key));
      const removed = this.#catalog.applyCutoff(key);
      for (const segment of this.#catalog.sorted()) {
        if (index.countIn(segment.name.base) === 0 && this.#droppable(segment)) this.#catalog.drop(segment);
      }
      return removed;
    });
  }

  async clear(): Promise<void> {
    await this.#writer.flush();
    await this.#catalog.loaded();
    await this.#writer.exclusive(() => {
      let files: string[] = [];
      try {
        files = readdirSync(this.dir);
      } catch {
        // Nothing to clear.
      }
      for (const file of files.filter((f) => parseSegmentFile(f)?.ext === 'log')) unlinkIfPresent(join(this.dir, file));
      for (const file of files.filter((f) => parseSegmentFile(f)?.ext === 'idx' || f === CUTOFF_FILE))
        unlinkIfPresent(join(this.dir, file));
      this.#catalog.forgetAll();
      this.#writer.detach();
    });
  }

  flush(): Promise<void> {
    return this.#writer.flush();
  }

  async close(): Promise<void> {
    await this.#writer.close();
    this.#catalog.updateTokenSnapshot();
  }

  /** Tokens are drawn at random and checked with has(): one folder has no other writers to share ranges with. */
  nextToken(): null {
    return null;
  }

  stats(): StoreStats {
    this.#catalog.finishLoading();
    this.#refresh();
    return {
      profiles: this.#catalog.index.size + this.#writer.queued,
      bytes: this.#catalog.bytes(),
      queued: this.#writer.queued,
      segments: this.#catalog.segments.size,
    };
  }

  /**
   * Rebuilds every segment's index from its records alone (segments another
   * live process still writes are left to it). Resolves to the number of
   * profiles indexed.
   */
  async rebuildIndex(): Promise<number> {
    await this.#writer.flush();
    await this.#catalog.loaded();
    return this.#writer.exclusive(() => {
      this.#writer.detach();
      this.#refresh();
      for (const segment of this.#catalog.sorted()) {
        if (!this.#droppable(segment)) continue;
        const base = segment.name.base;
        const logSize = statSync(logPath(this.dir, base)).size;
        const recovery = recoverSegment(this.dir, base, logSize, []);
        rewriteIndex(this.dir, base, recovery.records, logSize);
        if (recovery.skipped > 0)
          this.warn(
            `Segment ${base} of the profile store: ignored ${recovery.skipped} bytes of a half-written or damaged record.`,
          );
      }
      this.#catalog.forgetAll();
      this.#catalog.load();
      return this.#catalog.index.size;
    });
  }

  /** Not a segment another live process appends to, nor this process's current one. */
  #droppable(segment: SegmentState): boolean {
    if (segment === this.#writer.active) return false;
    return segment.sealed || segment.own || !isWriterAlive(this.dir, segment.name);
  }

  #enforceRetention(): void {
    // Once the index is loaded: the next batch's append enforces it.
    if (this.#catalog.isLoading) return;
    this.#refresh();
    const index = this.#catalog.index;
    const segments = this.#catalog.sorted();
    const usage = segments.map((segment) => ({
      base: segment.name.base,
      profiles: index.countIn(segment.name.base),
      bytes: segment.logBytes + segment.idxBytes,
      newest: index.newestIn(segment.name.base),
      droppable: this.#droppable(segment),
    }));
    const drop = new Set(segmentsToDrop(usage, this.limits, Date.now()));
    for (const segment of segments) if (drop.has(segment.name.base)) this.#catalog.drop(segment);
  }
}

function corrupt(token: string, segment: string, offset: number, problem: string, cause?: unknown): AppError {
  return new AppError(
    'APP_ERR_PROFILER_STORE_CORRUPT',
    `Profile "${token}" (segment ${segment}, byte ${offset}) is corrupt: ${problem}.`,
    { cause },
  );
}

function segmentSize(path: string): string {
  try {
    return String(statSync(path).size);
  } catch {
    return 'an unknown number of';
  }
}
