import {
  type BigIntStats,
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseIndexLines, type IndexedRecord } from './index-line.js';
import { ProfileIndex } from './profile-index.js';
import { recoverSegment, rewriteIndex } from './segment-recovery.js';
import {
  compareSegments,
  CUTOFF_FILE,
  errorCode,
  idxPath,
  isProcessAlive,
  isWriterAlive,
  logPath,
  makeStoreDir,
  parseSegmentFile,
  readAtSync,
  segmentName,
  tempFileOwner,
  isStaleTempFile,
  unlinkIfPresent,
  type SegmentName,
} from './store-files.js';
import { compareKeys, type OrderKey } from './time-ordered-list.js';
import { TokenBits, tokenNumber } from './token-bits.js';
import { HEAD_BYTES, readTokenSnapshot, type SegmentTokens, writeTokenSnapshot } from './token-snapshot.js';
import type { ProfileSummary } from '../profile.js';

export interface SegmentState {
  name: SegmentName;
  /** appended to by this process */
  own: boolean;
  /** its writer is done: its index never changes again */
  sealed: boolean;
  /** records written into it (removed ones included) */
  records: number;
  /** .log bytes accounted for */
  logBytes: number;
  /** .idx bytes read, whole lines only */
  idxBytes: number;
  /** inode of the .idx read, to notice a rewritten index */
  idxIno: bigint;
}

type Warn = (message: string) => void;

interface ListedSegment {
  name: SegmentName;
  log: boolean;
  idx: boolean;
  /** read already (repaired when opening) */
  records?: IndexedRecord[];
}

/** What loadInBackground() has left: the segments from `next` on, the tokens of every listed one, the records indexed meanwhile. */
interface PendingLoad {
  segments: ListedSegment[];
  next: number;
  tokens: TokenBits;
  deferred: { summary: ProfileSummary; segment: string; offset: number; length: number; slot: number }[];
}

/** ms of loading the index before the event loop gets a turn */
const LOAD_SLICE_MS = 8;
/** how long after opening the index starts loading unless a reader asks first */
const LOAD_AFTER_MS = 1_000;

/**
 * The segments of a store folder as this process knows them, and the index of
 * their records. Other processes append too: refresh() catches up in O(1) when
 * nothing changed (one stat of the folder, one per segment another process is
 * still writing). Synchronous on purpose, so that no two refreshes interleave.
 */
export class SegmentCatalog {
  index: ProfileIndex;
  readonly segments = new Map<string, SegmentState>();
  /** loadInBackground() under way: resolves once the index holds every stored profile */
  loading: Promise<void> | null = null;
  #pending: PendingLoad | null = null;
  #startLoading: () => void = () => {};
  /** this store keeps the token snapshot (it reads tokens ahead) */
  #keepsSnapshot = false;
  #dirStamp = '';
  #cutoffStamp = '';

  /** `create`: make the folder if it is missing (a server); a reader leaves a missing folder missing, and empty */
  constructor(
    readonly dir: string,
    private readonly warn: Warn,
    private readonly create = true,
    /** the catalog of a store that only writes (ProfileIndex countsOnly) */
    private readonly countsOnly = false,
  ) {
    this.index = new ProfileIndex({ countsOnly });
  }

  /** Reads every segment now; repairs the index of those no live process writes (a crash, a damaged or missing index). */
  load(): void {
    const listed = this.#list();
    if (!listed) return;
    const all: { base: string; record: IndexedRecord }[] = [];
    for (const found of listed)
      for (const record of this.#readSegment(found)) all.push({ base: found.name.base, record });
    all.sort((a, b) => compareKeys(a.record.summary, b.record.summary));
    for (const { base, record } of all) this.index.add(record.summary, base, record.offset, record.length, record.slot);
  }

  /**
   * As load(), with the index filled in the background, a segment at a time in slices of
   * LOAD_SLICE_MS with the event loop free between them, from LOAD_AFTER_MS on or as soon as a
   * reader asks (loaded()): a million profiles take seconds to parse, and a server starting need
   * neither wait for them nor share its first second with them. Until it resolves, has()
   * knows every stored token from the start of its index line, refresh() waits, and the records
   * this process indexes (indexRecord) are added after the stored ones, so that the arrival order
   * stays the store's. finishLoading() does the rest at once, for what cannot wait. `sliceMs` 0
   * loads one segment per turn; `tokens` false reads no tokens ahead, for a store whose has() no one
   * asks (the profiler worker's, which only writes).
   */
  loadInBackground({
    sliceMs = LOAD_SLICE_MS,
    afterMs = LOAD_AFTER_MS,
    tokens: readTokens = true,
  }: {
    sliceMs?: number;
    afterMs?: number;
    tokens?: boolean;
  } = {}): Promise<void> {
    this.#keepsSnapshot = readTokens;
    const listed = this.#list();
    if (!listed || listed.length === 0) return Promise.resolve();
    // Known by name at once: a new segment never takes the name of one not read yet.
    for (const { name } of listed)
      this.register({ name, own: false, sealed: false, records: 0, logBytes: 0, idxBytes: 0, idxIno: 0n });
    const tokens = new TokenBits();
    const { segments: known, all } = readTokens ? readTokenSnapshot(this.dir) : { segments: new Map(), all: null };
    // All the snapshot's tokens at once: a segment gone since leaves its tokens known until the index
    // is loaded (has() then says a few free tokens are taken), and the next snapshot leaves them out.
    if (all) tokens.addBytes(all);
    const snapshot: SegmentTokens[] = [];
    let readMore = false;
    for (const found of listed) {
      // One no live process writes and not sealed whole (a crash, a damaged index) is repaired now, as
      // load() does, so that its warnings come at opening and has() knows what it recovers.
      if (found.log && !this.#sealedWhole(found) && !isWriterAlive(this.dir, found.name)) {
        found.records = this.#readSegment(found);
        for (const { summary } of found.records)
          if (tokenNumber(summary.token) >= 0) tokens.add(tokenNumber(summary.token));
        readMore = true;
      } else if (readTokens && found.idx) {
        const before = known.get(found.name.base);
        const read = addIndexTokens(idxPath(this.dir, found.name.base), found.name.base, tokens, before);
        if (read) snapshot.push(read);
        const unchanged = read && before && read.ino === before.ino && read.head === before.head;
        if (!unchanged || read.bytes !== before.bytes) readMore = true;
      }
    }
    // A snapshot naming segments gone since is replaced too, so that it does not keep their tokens.
    const changed = readTokens && (readMore || snapshot.length !== known.size);
    this.#pending = { segments: listed, next: 0, tokens, deferred: [] };
    const begun = new Promise<void>((resolve) => {
      // Unreferenced: a process with nothing else to do need not stay for it.
      const timer = setTimeout(resolve, afterMs).unref();
      this.#startLoading = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.loading = (async () => {
      try {
        await begun;
        while (this.#pending) {
          this.#loadSome(performance.now() + sliceMs);
          if (this.#pending) await new Promise((resolve) => setImmediate(resolve));
        }
        // Written once loaded, in the background: the next opening reads it instead of the index files.
        if (changed) this.#writeSnapshot(snapshot);
      } catch (error) {
        this.#pending = null;
        this.warn(
          `The profile store's index could not be loaded in full (${(error as Error).message}): some profiles may not be listed until it is opened again.`,
        );
      }
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /**
   * Brings the token snapshot up to date with the index files (at close: a server that wrote a
   * million profiles since it opened the store would otherwise leave them all to the next opening).
   */
  updateTokenSnapshot(): void {
    if (!this.#keepsSnapshot) return;
    let files: string[];
    try {
      files = readdirSync(this.dir);
    } catch {
      return;
    }
    const { segments: known } = readTokenSnapshot(this.dir);
    const names = files.map(parseSegmentFile).filter((f) => f?.ext === 'idx') as SegmentName[];
    const snapshot: SegmentTokens[] = [];
    let changed = false;
    for (const name of names.sort(compareSegments)) {
      const before = known.get(name.base);
      const read = addIndexTokens(idxPath(this.dir, name.base), name.base, null, before);
      if (read) snapshot.push(read);
      if (read !== before) changed = true;
    }
    if (changed || snapshot.length !== known.size) this.#writeSnapshot(snapshot);
  }

  #writeSnapshot(snapshot: SegmentTokens[]): void {
    try {
      writeTokenSnapshot(this.dir, snapshot);
    } catch {
      // A cache: without it, the next opening reads the index files.
    }
  }

  /** Resolves once the index holds every stored profile (at once when it does), starting to load now if it waits still. */
  loaded(): Promise<void> | null {
    this.#startLoading();
    return this.loading;
  }

  get isLoading(): boolean {
    return this.#pending !== null;
  }

  /** Loads what loadInBackground() has not yet, now. */
  finishLoading(): void {
    if (this.#pending) this.#loadSome(Infinity);
  }

  /** Whether a stored (or indexed) profile has this token, those still to be loaded included. */
  has(token: string): boolean {
    if (this.index.has(token)) return true;
    const n = tokenNumber(token);
    return this.#pending !== null && n >= 0 && this.#pending.tokens.has(n);
  }

  /** A record this process just stored: indexed now, or once the stored ones are loaded. */
  indexRecord(summary: ProfileSummary, segment: string, offset: number, length: number, slot: number): void {
    if (!this.#pending) {
      this.index.add(summary, segment, offset, length, slot);
      return;
    }
    const n = tokenNumber(summary.token);
    if (n >= 0) this.#pending.tokens.add(n);
    this.#pending.deferred.push({ summary, segment, offset, length, slot });
  }

  #loadSome(until: number): void {
    const pending = this.#pending!;
    while (pending.next < pending.segments.length) {
      const found = pending.segments[pending.next++];
      const records = found.records ?? this.#readSegment(found);
      // Segments hold profiles nearly in time order: each one is appended, but for a few steps back.
      for (const r of records) this.index.add(r.summary, found.name.base, r.offset, r.length, r.slot);
      if (performance.now() >= until) return;
    }
    for (const d of pending.deferred) this.index.add(d.summary, d.segment, d.offset, d.length, d.slot);
    this.#pending = null;
  }

  /** The folder's segments, oldest first, the folder made if missing and allowed, stale temporary files removed and the cutoff read; null for a missing folder. */
  #list(): ListedSegment[] | null {
    if (this.create) makeStoreDir(this.dir);
    else if (!existsSync(this.dir)) return null;
    this.#dirStamp = this.#stamp() ?? '';
    const files = readdirSync(this.dir);
    this.#removeStaleTempFiles(files);
    this.#readCutoff(files);
    const found = new Map<string, ListedSegment>();
    for (const file of files) {
      const parsed = parseSegmentFile(file);
      if (!parsed) continue;
      const seen = found.get(parsed.base) ?? { name: segmentName(parsed.id, parsed.pid), log: false, idx: false };
      seen[parsed.ext] = true;
      found.set(parsed.base, seen);
    }
    return [...found.values()].sort((a, b) => compareSegments(a.name, b.name));
  }

  /** Whether the segment's index ends with a seal at its log's size: nothing to repair, unless a line inside is garbled. */
  #sealedWhole({ name, idx }: ListedSegment): boolean {
    if (!idx) return false;
    try {
      const tail = readTail(idxPath(this.dir, name.base), 64);
      const seal = /\["seal",(\d+)\]\n$/.exec(tail);
      return seal !== null && Number(seal[1]) === statSync(logPath(this.dir, name.base)).size;
    } catch {
      return false;
    }
  }

  /** A listed segment's records (none when it cannot be read, with a warning). */
  #readSegment({ name, log, idx }: ListedSegment): IndexedRecord[] {
    try {
      const records = this.#loadSegment(name, log, idx);
      if (records === null) this.segments.delete(name.base);
      return records ?? [];
    } catch (error) {
      this.segments.delete(name.base);
      this.warn(`Segment ${name.base} of the profile store cannot be read (${errorCode(error)}): skipped.`);
      return [];
    }
  }

  /** Catches up with other processes: new, grown, rewritten and removed segments, a new cutoff; not while loading. */
  refresh(): void {
    if (this.#pending) return;
    const stamp = this.#stamp();
    if (stamp === null) {
      if (this.segments.size > 0) this.forgetAll();
      this.#dirStamp = '';
      return;
    }
    if (stamp !== this.#dirStamp) {
      this.#dirStamp = stamp;
      this.#rescan();
    }
    for (const segment of this.segments.values()) {
      if (!segment.own && !segment.sealed) this.#tail(segment);
    }
  }

  /** Oldest first. */
  sorted(): SegmentState[] {
    return [...this.segments.values()].sort((a, b) => compareSegments(a.name, b.name));
  }

  register(segment: SegmentState): void {
    this.segments.set(segment.name.base, segment);
  }

  /** Deletes a segment's files (the log first: an index without its log is ignored, a log without index would be rebuilt). */
  drop(segment: SegmentState): number {
    try {
      unlinkIfPresent(logPath(this.dir, segment.name.base));
      unlinkIfPresent(idxPath(this.dir, segment.name.base));
    } catch (error) {
      this.warn(`Could not delete segment ${segment.name.base} of the profile store: ${errorCode(error)}.`);
    }
    this.segments.delete(segment.name.base);
    return this.index.removeSegment(segment.name.base);
  }

  forgetAll(): void {
    this.finishLoading();
    this.segments.clear();
    this.index = new ProfileIndex({ countsOnly: this.countsOnly });
    this.#cutoffStamp = '';
  }

  bytes(): number {
    let bytes = 0;
    for (const segment of this.segments.values()) bytes += segment.logBytes + segment.idxBytes;
    return bytes;
  }

  /** Applies a cutoff read from cutoff.json or set by prune. */
  applyCutoff(key: OrderKey): number {
    return this.index.applyCutoff(key);
  }

  #stamp(): string | null {
    try {
      const st = statSync(this.dir, { bigint: true });
      return `${st.ino}:${st.mtimeNs}`;
    } catch {
      return null;
    }
  }

  #removeStaleTempFiles(files: string[]): void {
    for (const file of files) {
      const owner = tempFileOwner(file);
      if (owner !== null && isStaleTempFile(owner, isProcessAlive)) unlinkIfPresent(join(this.dir, file));
    }
  }

  #readCutoff(files: readonly string[]): void {
    if (!files.includes(CUTOFF_FILE)) return;
    let text: string;
    try {
      text = readFileSync(join(this.dir, CUTOFF_FILE), 'utf8');
    } catch {
      return;
    }
    if (text === this.#cutoffStamp) return;
    this.#cutoffStamp = text;
    try {
      const key = JSON.parse(text) as OrderKey;
      if (Number.isFinite(key.time) && typeof key.token === 'string') this.index.applyCutoff(key);
      else throw new Error('not a cutoff');
    } catch {
      this.warn(`The profile store's ${CUTOFF_FILE} is garbled: ignored (pruned profiles may show again).`);
    }
  }

  /** The segment's records, its index repaired first when no live process writes it; null for an index without log. */
  #loadSegment(name: SegmentName, hasLog: boolean, hasIdx: boolean): IndexedRecord[] | null {
    const writerAlive = isWriterAlive(this.dir, name);
    if (!hasLog) {
      if (!writerAlive) unlinkIfPresent(idxPath(this.dir, name.base));
      return null;
    }
    const logSize = statSync(logPath(this.dir, name.base)).size;
    const read = hasIdx ? readIndexFile(idxPath(this.dir, name.base)) : { text: '', bytes: 0, ino: 0n, cut: false };
    const parsed = parseIndexLines(read.text);
    const segment: SegmentState = {
      name,
      own: false,
      sealed: parsed.sealedAt !== null,
      records: parsed.records.length,
      logBytes: logSize,
      idxBytes: read.bytes,
      idxIno: read.ino,
    };
    this.register(segment);
    if (writerAlive && !segment.sealed) {
      for (const n of parsed.garbled)
        this.warn(`Segment ${name.base} of the profile store: index line ${n} is garbled: skipped.`);
      return parsed.records;
    }
    const problems: string[] = [];
    // A writer killed between creating a segment and its first append leaves an empty log and no index: nothing is lost.
    if (!hasIdx && logSize > 0) problems.push('its index is missing');
    if (parsed.garbled.length > 0)
      problems.push(
        `index line${parsed.garbled.length > 1 ? 's' : ''} ${parsed.garbled.slice(0, 5).join(', ')} ${parsed.garbled.length > 1 ? 'are' : 'is'} garbled`,
      );
    if (read.cut) problems.push('its last index line is cut short');
    if (problems.length === 0 && parsed.sealedAt === logSize) return parsed.records;

    const recovery = recoverSegment(this.dir, name.base, logSize, parsed.records);
    if (recovery.misplaced > 0)
      problems.push(
        `${recovery.misplaced} index line${recovery.misplaced > 1 ? 's point' : ' points'} outside the segment or into another record`,
      );
    segment.idxBytes = rewriteIndex(this.dir, name.base, recovery.records, logSize);
    segment.idxIno = statSync(idxPath(this.dir, name.base), { bigint: true }).ino;
    segment.sealed = true;
    segment.records = recovery.records.length;
    if (problems.length > 0 || recovery.recovered > 0 || recovery.skipped > 0) {
      const found = [
        recovery.recovered > 0
          ? `recovered ${recovery.recovered} profile${recovery.recovered > 1 ? 's' : ''} from the segment`
          : '',
        recovery.skipped > 0 ? `ignored ${recovery.skipped} bytes of a half-written or damaged record` : '',
      ].filter(Boolean);
      this.warn(
        `Segment ${name.base} of the profile store: ${[...problems, ...found].join('; ')}; its index was rebuilt (${recovery.records.length} profiles).`,
      );
    }
    return recovery.records;
  }

  #rescan(): void {
    let files: string[];
    try {
      files = readdirSync(this.dir);
    } catch {
      this.forgetAll();
      return;
    }
    const logs = new Set<string>();
    for (const file of files) {
      const parsed = parseSegmentFile(file);
      if (parsed?.ext !== 'log') continue;
      logs.add(parsed.base);
      if (this.segments.has(parsed.base)) continue;
      this.register({
        name: segmentName(parsed.id, parsed.pid),
        own: false,
        sealed: false,
        records: 0,
        logBytes: 0,
        idxBytes: 0,
        idxIno: 0n,
      });
    }
    for (const segment of [...this.segments.values()]) {
      const creating = segment.own && segment.logBytes === 0 && !segment.sealed;
      if (!logs.has(segment.name.base) && !creating) {
        this.segments.delete(segment.name.base);
        this.index.removeSegment(segment.name.base);
      }
    }
    this.#readCutoff(files);
  }

  /** Reads the lines another process appended to a segment's index since last time. */
  #tail(segment: SegmentState): void {
    const path = idxPath(this.dir, segment.name.base);
    let st;
    try {
      st = statSync(path, { bigint: true });
    } catch {
      return;
    }
    if (segment.idxBytes > 0 && (st.ino !== segment.idxIno || Number(st.size) < segment.idxBytes)) {
      this.index.removeSegment(segment.name.base);
      segment.idxBytes = 0;
      segment.records = 0;
    }
    segment.idxIno = st.ino;
    if (Number(st.size) <= segment.idxBytes) return;
    let chunk;
    try {
      chunk = readIndexFile(path, segment.idxBytes);
    } catch {
      return;
    }
    const parsed = parseIndexLines(chunk.text);
    for (const n of parsed.garbled)
      this.warn(
        `Segment ${segment.name.base} of the profile store: an index line is garbled: skipped (line ${n} of the new part).`,
      );
    for (const r of parsed.records) {
      this.index.add(r.summary, segment.name.base, r.offset, r.length, r.slot);
      segment.logBytes = Math.max(segment.logBytes, r.offset + r.length);
    }
    segment.records += parsed.records.length;
    segment.idxBytes += chunk.bytes;
    if (parsed.sealedAt !== null) {
      segment.sealed = true;
      segment.logBytes = Math.max(segment.logBytes, parsed.sealedAt);
    }
  }
}

/** The last `bytes` bytes of a file, as text. */
function readTail(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Adds the token every line of an index file starts with (`["3f2a1c",`, JSON.stringify of a valid
 * token) without parsing the lines: the tokens of a million profiles in a fraction of the time.
 * A line of another form adds nothing; a file that cannot be read adds nothing (its segment is
 * then skipped or rebuilt when loaded). Of this very file as `known` (the token snapshot's) covers
 * it, whose tokens the caller added with the snapshot's, only the lines after are read. Returns what was added, for the next snapshot;
 * null when the file cannot be read.
 */
function addIndexTokens(
  path: string,
  base: string,
  tokens: TokenBits | null,
  known: SegmentTokens | undefined,
): SegmentTokens | null {
  if (known) {
    // Unchanged since the snapshot (most segments: sealed long ago): not even opened.
    const st = statIfPresent(path);
    if (st && String(st.ino) === known.ino && String(st.mtimeNs) === known.mtime && Number(st.size) === known.bytes)
      return known;
  }
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    const size = Number(st.size);
    const ino = String(st.ino);
    const mtime = String(st.mtimeNs);
    const head = readAtSync(fd, 0, Math.min(HEAD_BYTES, size)).toString('base64');
    const same = known !== undefined && known.ino === ino && known.head === head && known.bytes <= size;
    const from = same ? known.bytes : 0;
    const bytes = readAtSync(fd, from, size - from);
    const added: number[] = [];
    let at = 0;
    while (at + 9 <= bytes.length) {
      if (bytes[at] === 0x5b && bytes[at + 1] === 0x22 && bytes[at + 8] === 0x22) {
        let n = 0;
        for (let i = at + 2; i < at + 8 && n >= 0; i++) {
          const c = bytes[i];
          const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
          n = digit < 0 ? -1 : (n << 4) | digit;
        }
        if (n >= 0) {
          tokens?.add(n);
          added.push(n);
        }
      }
      const end = bytes.indexOf(0x0a, at + 9);
      if (end < 0) break;
      at = end + 1;
    }
    const fresh = Buffer.allocUnsafe(added.length * 3);
    added.forEach((n, i) => fresh.writeUIntBE(n, i * 3, 3));
    return {
      base,
      ino,
      mtime,
      head,
      bytes: from + at,
      tokens: same ? Buffer.concat([known.tokens, fresh]) : fresh,
    };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function statIfPresent(path: string): BigIntStats | null {
  try {
    return statSync(path, { bigint: true });
  } catch {
    return null;
  }
}

/** The whole lines of an index file from `from` on; `cut` when it ends inside a line. */
function readIndexFile(path: string, from = 0): { text: string; bytes: number; ino: bigint; cut: boolean } {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd, { bigint: true });
    const bytes = readAtSync(fd, from, Number(st.size) - from);
    const done = bytes.length;
    const whole = done === 0 ? 0 : bytes.lastIndexOf(0x0a, done - 1) + 1;
    return { text: bytes.toString('utf8', 0, whole), bytes: whole, ino: st.ino, cut: whole < done };
  } finally {
    closeSync(fd);
  }
}
