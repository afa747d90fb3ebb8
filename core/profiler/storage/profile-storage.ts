import type { Profile, ProfileSummary, SearchQuery } from '../profile.js';
import type { RetentionLimits } from './retention.js';

export interface PruneOptions {
  /** keep this many newest profiles */
  keep?: number;
  /** remove profiles that started more than this many ms ago */
  olderThanMs?: number;
}

export interface StoreStats {
  /** stored and queued profiles */
  profiles: number;
  /** bytes the store takes on disk */
  bytes: number;
  /** profiles never stored since the store was opened: queue full, write errors */
  dropped: number;
  /** profiles waiting to be written */
  queued: number;
  segments: number;
}

/** What another thread needs to open the write side of a store folder itself (plain data, sent by message). */
export interface FileWriterSpec {
  kind: 'file';
  dir: string;
  limits: RetentionLimits;
  maxQueue: number;
  compressInWorker: boolean;
  /** this process's table of segments being written (store-files.ts sharedWriting) */
  writing: SharedArrayBuffer;
}

/** What another thread needs to write a PostgreSQL store's profiles over a connection of its own. */
export interface PostgresWriterSpec {
  kind: 'postgres';
  url: string;
  /** the instance's name, which may change once the server listens (postgres-instance.ts) */
  instance: SharedArrayBuffer;
  maxQueue: number;
}

export type StoreWriterSpec = FileWriterSpec | PostgresWriterSpec;

/** What the thread writing a store's announced profiles reports, per batch. */
export interface WrittenReport {
  /** on disk and indexed: readable through this store now */
  stored: string[];
  /** never to be stored: already counted and warned of by the writer */
  dropped: string[];
  /** the writer's warnings, to be told as this store's */
  warnings: string[];
  /** PostgreSQL: why `dropped` were dropped; the store counts them and warns (at most once per interval) */
  dropReason?: string;
  /** PostgreSQL: the bytes `stored` count for */
  bytes?: number;
  /** PostgreSQL: whether the database is away now */
  away?: boolean;
}

/**
 * Where profiles are kept, as every reader sees it: Symfony's ProfilerStorageInterface (write,
 * read, find, purge) and close. The pages, the CLI and MCP take no more than this. Tokens reach an
 * implementation already validated (isValidToken).
 *
 * Failure modes: write() never throws (a profile that cannot be stored is dropped, counted and
 * reported as a warning); read() throws an AppError APP_ERR_PROFILER_STORE_CORRUPT whose message says
 * what is wrong when the stored bytes of that profile are damaged; nothing else throws for damaged
 * or missing files, which are skipped, recovered or recreated with a warning.
 */
export interface ProfileStore {
  /**
   * Queues the profile, written off the response path; when the bounded queue
   * is full it is dropped and counted. The profile is stored as given: it
   * was redacted when built (build-profile.ts), no store redacts again.
   */
  write(profile: Profile): void;
  /** The profile, queued ones included; null when unknown or removed. */
  read(token: string): Promise<Profile | null>;
  /** Newest first, at most query.limit after skipping query.offset; reads the index only. */
  search(query: SearchQuery): Promise<ProfileSummary[]>;
  /**
   * How many profiles match the query, whatever its limit and offset. With `atMost`, a count that
   * would have to go through the matches one by one may stop past it: atMost + 1 then stands for
   * "more than atMost" (match-count.ts). A count the store keeps is exact whatever `atMost`.
   */
  count(query: SearchQuery, atMost?: number): Promise<number>;
  /** The last profile to arrive. */
  latest(): Promise<ProfileSummary | null>;
  /** Exact: search and read no longer return the removed profiles. Resolves to how many were removed. */
  prune(options: PruneOptions): Promise<number>;
  clear(): Promise<void>;
  /** Resolves when every profile queued so far is on disk (or dropped). */
  flush(): Promise<void>;
  /** flush(), then release; idempotent. Writes after close() are dropped. */
  close(): Promise<void>;
}

/**
 * A store as the profiler's hand-off and the dev server use it (server/, core/profiler/handoff/):
 * the store, and what takes a profile from a request's end into it: announcements of profiles
 * still in the worker, the worker writing the store itself, the token source, admission and counts.
 * Both backends implement it (file-storage.ts, postgres-storage.ts); nothing that only reads
 * profiles asks for it.
 */
export interface ProfileStorage extends ProfileStore {
  /**
   * Says that the profile `token` is being built elsewhere (the profiler worker) and will come
   * through writeJson() or cancel(): has() knows it, read() waits for it (at most a second),
   * flush() and close() wait for it. False when the queue is full: it is then dropped and counted.
   */
  announce(token: string): boolean;
  /**
   * Null when the store can take more profiles now. Otherwise the profiler worker is behind: a promise
   * that resolves once it has caught up enough, or after a second at most. The server holds the next
   * request back until then, so that a load the worker cannot follow slows down instead of losing
   * profiles. A store whose backlog is no sign of a slow worker (a database away) has none: it returns
   * null, and a wait it gave ends at once when it learns so.
   */
  whenRoom?(): Promise<void> | null;
  /** An announced profile, stored elsewhere: its stored entry (stored-profile-reader.ts), and its summary. */
  writeJson(json: Buffer, summary: ProfileSummary): void;
  /** An announced profile that will not come: dropped, counted, and reported with `reason`. */
  cancel(token: string, reason: string): void;
  /**
   * How the profiler worker may write this store's announced profiles itself (undefined or null: it
   * sends them back through writeJson). The worker then reports each batch with settleWritten().
   */
  writerSpec?(): StoreWriterSpec | null;
  /** Announced profiles another thread wrote (or dropped) into this store, as writerSpec() allowed. */
  settleWritten?(report: WrittenReport): void;
  /** Synchronous, for token generation; queued profiles included. */
  has(token: string): boolean;
  /**
   * Synchronous, for token generation, in a store several servers write: a token no other writer
   * can hand out, or null when none is at hand (a random one is then drawn, checked with has()).
   */
  nextToken?(): string | null;
  stats(): StoreStats;
  /**
   * Which server writes through this store from now on (host name:port, known once it listens): a
   * store several servers share records it with each profile; one a single server owns ignores it.
   */
  servedBy(instance: string): void;
}
