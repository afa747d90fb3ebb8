import type { Profile, ProfileSummary, SearchQuery } from '../profile.js';
import type {
  ProfileStore,
  PruneOptions,
  ServedStore,
  StoreServing,
  StoredEntry,
  StoreStats,
  StoreWriterSpec,
  WrittenReport,
} from '../storage/profile-storage.js';
import { serveStorage, type StorageOptions } from '../storage/open-storage.js';
import { Announcements } from './announcements.js';

export interface IntakeOptions {
  /** profiles announced or written and not yet stored, beyond which new ones are dropped; default 2,000 */
  maxQueue?: number;
  /** a dropped profile, the store away and back: one line each, dropped ones at most once per interval */
  warn: (message: string) => void;
}

export interface IntakeStats extends StoreStats {
  /** profiles never stored since the intake was opened: queue full, write errors, never built */
  dropped: number;
}

export const DEFAULT_MAX_QUEUE = 2_000;

/**
 * Opens the store at `location` (open-storage.ts: whichever backend takes it) for a server to write,
 * behind its intake, which hears of every batch the store writes.
 */
export async function openProfileIntake(
  location: string,
  options: StorageOptions & IntakeOptions,
): Promise<ProfileIntake> {
  const { maxQueue, warn, ...storage } = options;
  const served = await serveStorage(location, { ...storage, onWarning: storage.onWarning ?? warn });
  return new ProfileIntake(served, { maxQueue, warn });
}
/** How long a reader waits for the profiles announced and still being built, at most (ms). */
const ANNOUNCED_WAIT_MS = {
  /**
   * read(), for its profile: the profiler worker's first start (its modules, a database connection)
   * took over a second on a loaded 2-core machine, and a profile opened from the first page then answered 404.
   */
  read: 5_000,
  /** search() and count(), for every one so far: a page of many is not held up long */
  search: 1_000,
  /** flush() and close(), for every one so far */
  flush: 5_000,
};
/** how long whenRoom() holds a request back at most, should the writer not catch up */
const ROOM_WAIT_MS = 1_000;
/**
 * A writer that stored nothing for this long while behind is not merely slow: the disk or the
 * database may hang without an error. Requests are then no longer held back for it.
 */
const ROOM_STALL_MS = 1_000;
/** dropped profiles are told at most this often */
const WARNING_INTERVAL_MS = 10_000;

/**
 * A server's store as the hand-off fills it: the store (any backend, the contract of
 * profile-storage.ts) behind what takes a profile from a request's end into it. A profile is
 * announced when its response is sent, so that it is never "missing" while the profiler worker
 * builds it: read() waits for it, search(), count() and flush() for every one announced so far.
 * Admission is bounded: once the profiles announced or written and not yet stored reach maxQueue,
 * new ones are dropped and counted, with a warning at most once per interval; from three quarters
 * of it whenRoom() holds the next request back rather than lose profiles. The store reports what
 * it stored and dropped (WrittenReport), from this thread or from the worker's writer.
 */
export class ProfileIntake implements ProfileStore {
  /** being built elsewhere: readers wait for these */
  readonly #announced = new Announcements();
  /** handed to the store (here or in the worker's writer), not yet reported stored or dropped */
  readonly #writing = new Set<string>();
  readonly #maxQueue: number;
  readonly #warn: (message: string) => void;
  #dropped = 0;
  #lastWarning = -Infinity;
  #unreported = 0;
  /** the store is away, as it last said */
  #away = false;
  /** when the writer was last seen keeping up: nothing to hold back for, or a batch stored */
  #keepingUpAt = -Infinity;
  #closing: Promise<void> | null = null;

  /** the store every reader sees */
  readonly store: ProfileStore;
  readonly #serving: StoreServing;

  constructor(served: ServedStore, options: IntakeOptions) {
    this.store = served.store;
    this.#serving = served.serving;
    this.#maxQueue = options.maxQueue ?? DEFAULT_MAX_QUEUE;
    this.#warn = options.warn;
    this.#serving.reportTo((report) => this.written(report));
  }

  /**
   * Says that the profile `token` is being built elsewhere (the profiler worker) and will come
   * through writeBatch() or cancel() (or the worker's writer reports it): has() knows it, readers
   * wait for it. False when the queue is full or the intake closing: it is then dropped and counted.
   */
  announce(token: string): boolean {
    if (!this.#admit()) return false;
    this.#announced.add(token);
    return true;
  }

  /** An announced profile that will not come: dropped, counted, and reported with `reason`. */
  cancel(token: string, reason: string): void {
    this.#announced.settle(token);
    this.#drop(reason);
  }

  /** Entries for the store: announced ones, or others admitted as announce() admits them. */
  writeBatch(entries: readonly StoredEntry[]): void {
    const admitted: StoredEntry[] = [];
    for (const entry of entries) {
      const token = entry.summary.token;
      if (this.#announced.has(token)) this.#announced.settle(token);
      else if (!this.#admit()) continue;
      this.#writing.add(token);
      admitted.push(entry);
    }
    if (admitted.length > 0) this.store.writeBatch(admitted);
  }

  /** How the profiler worker may write the store itself; what it writes is then reported through written(). */
  writerSpec(): StoreWriterSpec | null {
    return this.#closing ? null : this.#serving.writerSpec();
  }

  /**
   * What the store stored and dropped: `elsewhere` when another thread (the worker's writer)
   * wrote it, so that the store learns of it too.
   */
  written(report: WrittenReport, elsewhere = false): void {
    if (report.away !== undefined) this.#away = report.away;
    if (report.away) this.#announced.releaseRoom();
    for (const message of report.warnings) this.#warn(message);
    if (report.stored.length > 0) this.#keepingUpAt = Date.now();
    for (const token of report.stored) this.#settle(token);
    for (const token of report.dropped) this.#settle(token);
    if (elsewhere && report.stored.length > 0) this.#serving.storedElsewhere(report.stored, report.bytes ?? 0);
    if (report.dropped.length > 0)
      this.#drop(report.dropReason ?? 'Profiles could not be stored, so they were dropped.', report.dropped.length);
  }

  /**
   * Null unless the writer is behind: three quarters of maxQueue announced. Then a promise that
   * resolves once half of that or fewer are left, when the store says it is away, or after
   * ROOM_WAIT_MS. Never a wait while the store is away or the writer stored nothing for
   * ROOM_STALL_MS: those profiles are dropped and counted, and requests go on at full speed.
   */
  whenRoom(): Promise<void> | null {
    if (this.#closing || this.#away) return null;
    const now = Date.now();
    const high = Math.max(1, Math.floor((this.#maxQueue * 3) / 4));
    if (this.#announced.size < high) {
      this.#keepingUpAt = now;
      return null;
    }
    if (now - this.#keepingUpAt > ROOM_STALL_MS) return null;
    return this.#announced.whenBelow(high, ROOM_WAIT_MS);
  }

  /** Synchronous, for token generation: announced, written or stored. */
  has(token: string): boolean {
    return this.#announced.has(token) || this.#writing.has(token) || this.#serving.has(token);
  }

  /** A token no other writer of the store hands out, or null (see StoreServing.nextToken). */
  nextToken(): string | null {
    return this.#serving.nextToken();
  }

  stats(): IntakeStats {
    return { ...this.#serving.stats(), dropped: this.#dropped };
  }

  async read(token: string): Promise<Profile | null> {
    // A profile still being built, announced when its response was sent: worth a short wait.
    if (this.#announced.has(token)) await this.#announced.settled(token, ANNOUNCED_WAIT_MS.read);
    return this.store.read(token);
  }

  async search(query: SearchQuery): Promise<ProfileSummary[]> {
    // The profiles of requests already answered are in the list, even those still being built.
    await this.#announced.soFar(ANNOUNCED_WAIT_MS.search);
    return this.store.search(query);
  }

  async count(query: SearchQuery, atMost?: number): Promise<number> {
    await this.#announced.soFar(ANNOUNCED_WAIT_MS.search);
    return this.store.count(query, atMost);
  }

  async prune(options: PruneOptions): Promise<number> {
    await this.#announced.soFar(ANNOUNCED_WAIT_MS.flush);
    return this.store.prune(options);
  }

  async clear(): Promise<void> {
    await this.#announced.soFar(ANNOUNCED_WAIT_MS.flush);
    await this.store.clear();
  }

  async flush(): Promise<void> {
    await this.#announced.soFar(ANNOUNCED_WAIT_MS.flush);
    await this.store.flush();
  }

  /** Takes no more, waits for the profiles announced so far, closes the store, and tells how many were dropped in all. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#announced.soFar(ANNOUNCED_WAIT_MS.flush);
      await this.store.close();
      if (this.#dropped > 0)
        this.#warn(
          `${this.#dropped} profile${this.#dropped === 1 ? ' was' : 's were'} dropped in all since the profile store was opened.`,
        );
    })();
    return this.#closing;
  }

  #admit(): boolean {
    if (this.#closing) {
      this.#dropped++;
      return false;
    }
    if (this.#announced.size + this.#writing.size < this.#maxQueue) return true;
    this.#drop(
      this.#away
        ? `Profiles are being dropped: the profile store is away and its write queue is full (${this.#maxQueue} profiles).`
        : `The profile store cannot keep up: its write queue is full (${this.#maxQueue} profiles), so a profile was dropped.`,
    );
    return false;
  }

  #settle(token: string): void {
    this.#announced.settle(token);
    this.#writing.delete(token);
  }

  /** Counts dropped profiles; tells the first at once, then at most one line per interval. */
  #drop(reason: string, count = 1): void {
    this.#dropped += count;
    const now = Date.now();
    if (now - this.#lastWarning < WARNING_INTERVAL_MS) {
      this.#unreported += count;
      return;
    }
    const more = this.#unreported > 0 ? ` (${this.#unreported} more dropped since the last warning)` : '';
    this.#unreported = 0;
    this.#lastWarning = now;
    this.#warn(`${reason}${more}`);
  }
}
