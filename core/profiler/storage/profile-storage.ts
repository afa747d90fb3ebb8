import type { Likeness } from './entry-patch.js';
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
  /** profiles waiting to be written */
  queued: number;
  segments: number;
}

/** One profile as a store keeps it: its summary, and its stored entry (stored-profile-reader.ts reads it) as bytes. */
export interface StoredEntry {
  summary: ProfileSummary;
  json: Buffer;
  /** where it may differ from an earlier entry of the same batch, which it is otherwise the same as: the store may keep it as that change (entry-patch.ts) */
  like?: Likeness;
}

/** What another thread needs to open the write side of a store folder itself (plain data, sent by message). */
export interface FileWriterSpec {
  kind: 'file';
  dir: string;
  limits: RetentionLimits;
  /** this process's table of segments being written (store-files.ts sharedWriting) */
  writing: SharedArrayBuffer;
}

/** What another thread needs to write a PostgreSQL store's profiles over a connection of its own. */
export interface PostgresWriterSpec {
  kind: 'postgres';
  url: string;
  /** the server's name, which may change once it listens (server-name.ts) */
  instance: SharedArrayBuffer;
}

export type StoreWriterSpec = FileWriterSpec | PostgresWriterSpec;

/**
 * What a store reports of the entries written to it, as batches reach the disk or the database (a
 * store opened with `onWritten`, or the profiler worker's writer, by message).
 */
export interface WrittenReport {
  /** on disk and indexed: readable through the store now */
  stored: string[];
  /** never to be stored (a write failed, a token already taken, the store closed) */
  dropped: string[];
  /** the writer's warnings, to be told as the store's (the profiler worker's writer has no terminal) */
  warnings: string[];
  /** why `dropped` were dropped */
  dropReason?: string;
  /** the bytes `stored` count for */
  bytes?: number;
  /** whether the store is away now (a database that does not answer): waiting for it would be no use */
  away?: boolean;
}

/**
 * Where profiles are kept, as every reader and writer sees it: Symfony's ProfilerStorageInterface
 * (write, read, find, purge), writing whole batches, and close. The pages, the CLI and MCP take no
 * more than this, and the hand-off (core/profiler/handoff/profile-intake.ts) admits, queues and
 * counts what a server writes in front of it. Tokens reach an implementation already validated
 * (isValidToken).
 *
 * Failure modes: writeBatch() never throws (an entry that cannot be stored is dropped and reported,
 * see WrittenReport); read() throws an AppError APP_ERR_PROFILER_STORE_CORRUPT whose message says
 * what is wrong when the stored bytes of that profile are damaged; nothing else throws for damaged
 * or missing files, which are skipped, recovered or recreated with a warning.
 */
export interface ProfileStore {
  /**
   * Writes the entries off the response path, in batches; until they are stored, read() and
   * search() find them in memory. Stored as given: a profile was redacted when built
   * (build-profile.ts), no store redacts again.
   */
  writeBatch(entries: readonly StoredEntry[]): void;
  /** The profile, written ones not yet stored included; null when unknown or removed. */
  read(token: string): Promise<Profile | null>;
  /** Newest first, at most query.limit after skipping query.offset; reads the index only. */
  search(query: SearchQuery): Promise<ProfileSummary[]>;
  /**
   * How many profiles match the query, whatever its limit and offset. With `atMost`, a count that
   * would have to go through the matches one by one may stop past it: atMost + 1 then stands for
   * "more than atMost" (match-count.ts). A count the store keeps is exact whatever `atMost`.
   */
  count(query: SearchQuery, atMost?: number): Promise<number>;
  /** Exact: search and read no longer return the removed profiles. Resolves to how many were removed. */
  prune(options: PruneOptions): Promise<number>;
  clear(): Promise<void>;
  /**
   * Resolves when every entry written so far is stored (or dropped): writes are batched off the
   * response path, and whoever must see them on disk (a copy, a process that ends) waits here.
   */
  flush(): Promise<void>;
  /** flush(), then release; idempotent. Entries written after close() are dropped. */
  close(): Promise<void>;
}

/**
 * What a server's hand-off needs of the store it writes besides the contract, which each backend
 * gives in its own way: handed out with the store by the backend table (open-storage.ts
 * serveStorage), used by the intake alone (core/profiler/handoff/profile-intake.ts).
 */
export interface StoreServing {
  /** From now on, what each batch written came to goes to `listener` (the intake) instead of warnings. */
  reportTo(listener: (report: WrittenReport) => void): void;
  /** Backend facts for diagnostics and tests: the queue and the bytes on disk. */
  stats(): StoreStats;
  /**
   * How the profiler worker may write the store itself (null: the main thread writes it). The
   * store then learns of what the worker stored through storedElsewhere().
   */
  writerSpec(): StoreWriterSpec | null;
  /** Profiles another thread of this process stored (the profiler worker's writer): has(), the counts and retention know them. */
  storedElsewhere(tokens: string[], bytes: number): void;
  /** Synchronous, for token generation: stored, or written and not yet stored. */
  has(token: string): boolean;
  /**
   * Synchronous, for token generation, in a store several servers write: a token no other writer
   * can hand out, or null when none is at hand (a random one is then drawn, checked with has()).
   */
  nextToken(): string | null;
}

/** A store a server writes: the store every reader sees, and what the hand-off needs besides. */
export interface ServedStore {
  store: ProfileStore;
  serving: StoreServing;
}
