import { hostname } from 'node:os';
import pg from 'pg';
import { AppError } from '../../errors.js';
import type { Profile, ProfileSummary, SearchQuery } from '../profile.js';
import { isValidToken } from '../token.js';
import type { ProfileStore, PruneOptions, StoredEntry } from './profile-storage.js';
import type { PostgresWriterSpec, StoreServing, StoreStats, WrittenReport } from './profile-storage.js';
import { isConnectionError, openFailure, parseDatabaseUrl } from './postgres-errors.js';
import { bodyAt } from './postgres-blocks.js';
import { BLOCKS_TABLE, COUNTS_TABLE, migrate, PROFILES_TABLE, URLS_TABLE } from './postgres-schema.js';
import { BATCH_ROWS } from './postgres-insert.js';
import { ServerName } from '../server-name.js';
import { PostgresQueue, type QueuedProfile } from './postgres-queue.js';
import {
  countableFromTotals,
  ipLookup,
  MAX_NAMED_URLS,
  type NamedMatches,
  namedIps,
  searchCondition,
  urlLookup,
} from './postgres-search.js';
import { TokenPool } from './postgres-token-pool.js';
import { DEFAULT_RETENTION, type RetentionLimits } from './retention.js';
import { MAX_COMPRESSED_BYTES, MAX_INFLATED_BYTES, readStoredEntry } from './stored-profile-reader.js';
import { summaryFilter } from './summary-filter.js';
import { queuedAndStored } from './queued-and-stored.js';

export interface PostgresStorageOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  onWarning?: (message: string) => void;
  maxProfiles?: number;
  maxBytes?: number;
  maxAgeMs?: number;
  /** after each batch written: the tokens stored, and those dropped and why (the hand-off counts them) */
  onWritten?: (report: WrittenReport) => void;
  /** who serves the profiles this store writes (default: host name:process id) */
  instance?: string;
  /** the same, as `app serve` gives it: a name every thread shares, set to host name:port once it listens */
  serverName?: ServerName;
}

const T = PROFILES_TABLE;
/** how long close() keeps trying to write the queue to a database that is away */
const CLOSE_WAIT_MS = 10_000;
/** retention is enforced at most this often */
const RETENTION_INTERVAL_MS = 1_000;
/** every instance's profiles are counted again (from the counts table) at most this often; in between, this instance adds its own */
const TOTALS_INTERVAL_MS = 1_000;
/**
 * The planner's statistics are gathered again once this instance has written this many profiles
 * plus this share of the table since it last did: a plan made for a smaller table (a sort of every
 * match instead of walking the time index) costs a search at 100,000 profiles a hundred times more.
 * Once per quadrupling is enough (the planner scales the row counts it knows to the table's pages,
 * and autovacuum gathers them too, at most once a minute, after every 2% more): each ANALYZE reads
 * every page up to 30,000 of them (54 ms of the database's CPU at 30,000 profiles, 84 at 100,000).
 * Gathered at every tenth more, a table filled from empty at full speed cost the database as much
 * CPU again as a fifth of its inserts; at every doubling, still about a microsecond per profile.
 */
const ANALYZE_AFTER_ROWS = 1_000;
const ANALYZE_AFTER_SHARE = 3;
/** tokens other instances wrote are learnt this often, for has() */
const TOKEN_REFRESH_MS = 500;
/** how long after opening the store every stored token is read (learnAllTokensSoon), and how many a query */
const LEARN_ALL_AFTER_MS = 1_000;
const LEARN_PAGE_ROWS = 50_000;

const stderrWarning = (message: string): void => void process.stderr.write(`appkernel: warning: ${message}\n`);

/**
 * Opens the profile store in a PostgreSQL database, creating or upgrading its tables. Throws an
 * AppError naming the problem when the URL is malformed, the server cannot be reached, the user
 * or password is refused, the database does not exist, or its schema is newer than this version.
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<PostgresStorage> {
  const url = parseDatabaseUrl(options.url);
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw openFailure(url, error);
  }
  try {
    await migrate(client);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw openFailure(url, error);
  } finally {
    await client.end().catch(() => {});
  }
  const pool = new pg.Pool({
    connectionString: url.toString(),
    max: 4,
    connectionTimeoutMillis: 3_000,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
  });
  const warn = options.onWarning ?? stderrWarning;
  const storage = new PostgresStorage(
    pool,
    url.toString(),
    {
      maxProfiles: options.maxProfiles ?? DEFAULT_RETENTION.maxProfiles,
      maxBytes: options.maxBytes ?? DEFAULT_RETENTION.maxBytes,
      maxAgeMs: options.maxAgeMs ?? DEFAULT_RETENTION.maxAgeMs,
    },
    warn,
    serverNameOf(options),
    options.onWritten,
  );
  await storage.refreshTotals();
  storage.learnAllTokensSoon();
  await storage.reserveTokens();
  if (await statisticsStale(pool)) storage.analyze();
  return storage;
}

/**
 * Profiles in one table shared by every instance that opens the same database. The profiler worker
 * writes the profiles it builds itself (writerSpec(), postgres-thread-writer.ts), and this store
 * learns of them (storedElsewhere()); entries given here (writeBatch()) are queued on this thread. Either
 * queue sends batches (one INSERT of up to BATCH_ROWS rows) off the request path; while the
 * database is away it waits, bounded, and is written once it is back. has() answers from
 * memory: this instance's tokens and those the others wrote, learnt every TOKEN_REFRESH_MS.
 * nextToken() hands out tokens reserved in the database (TokenPool: ranges of them), which no other instance can
 * draw; a token another instance took anyway is never overwritten (ON CONFLICT DO NOTHING): the
 * later profile is dropped and counted.
 */
export class PostgresStorage implements ProfileStore, StoreServing {
  /** the instance name, in memory the profiler worker's writer reads too */
  readonly #instance: ServerName;
  readonly #pool: pg.Pool;
  readonly #url: string;
  readonly #local: PostgresQueue;
  readonly #warn: (message: string) => void;
  #onWritten: ((report: WrittenReport) => void) | undefined;
  readonly #waiting: Map<string, QueuedProfile>;
  /** tokens known to be in the table */
  readonly #known = new Set<string>();
  #lastSeq = 0;
  #stored = 0;
  #bytes = 0;
  #closing: Promise<void> | null = null;
  #closed = false;
  #lastRetention = 0;
  #lastTotals = 0;
  #retentionDue = false;
  #retentionTimer: NodeJS.Timeout | null = null;
  #retaining: Promise<void> | null = null;
  #writtenSinceAnalyze = 0;
  #analyzing: Promise<void> | null = null;
  /** a lookup of the others' tokens under way: a slow database gets one at a time, not one every TOKEN_REFRESH_MS */
  #learning: Promise<void> | null = null;
  /** the first reading of every stored token (learnAllTokensSoon), which close() waits for */
  #allLearnt: Promise<void> = Promise.resolve();
  #learnAllTimer: NodeJS.Timeout | null = null;
  #skipLearningAll: () => void = () => {};
  readonly #tokenTimer: NodeJS.Timeout;
  readonly #tokens: TokenPool;

  constructor(
    pool: pg.Pool,
    url: string,
    readonly limits: RetentionLimits,
    warn: (message: string) => void,
    serverName: ServerName,
    onWritten?: (report: WrittenReport) => void,
  ) {
    this.#pool = pool;
    this.#url = url;
    this.#warn = warn;
    this.#onWritten = onWritten;
    this.#instance = serverName;
    this.#local = new PostgresQueue(pool, () => this.instance, {
      written: (stored, bytes) => {
        this.#afterStored(stored, bytes);
        this.#report({ stored, dropped: [], warnings: [], bytes });
      },
      dropped: (tokens, reason) => this.#report({ stored: [], dropped: tokens, warnings: [], dropReason: reason }),
      warn: (message) => {
        warn(message);
        this.#report({ stored: [], dropped: [], warnings: [], away: this.#local.down });
      },
    });
    this.#waiting = this.#local.waiting;
    // An idle connection the server closed: the pool drops it and makes another when needed.
    pool.on('error', () => {});
    this.#tokens = new TokenPool(pool, () => this.instance);
    this.#tokenTimer = setInterval(() => {
      this.#learning ??= this.#allLearnt
        .then(() => this.#learnTokens())
        .catch(() => {})
        .finally(() => {
          this.#learning = null;
        });
    }, TOKEN_REFRESH_MS).unref();
  }

  /** who serves the profiles this store writes: host name and port, or host name:process id */
  get instance(): string {
    return this.#instance.get();
  }

  set instance(name: string) {
    this.#instance.set(name);
  }

  /** The write side, for the profiler worker to open in its own thread (postgres-thread-writer.ts). */
  writerSpec(): PostgresWriterSpec | null {
    if (this.#closing) return null;
    return { kind: 'postgres', url: this.#url, instance: this.#instance.buffer };
  }

  reportTo(listener: (report: WrittenReport) => void): void {
    this.#onWritten = listener;
  }

  /** Rows the worker's writer inserted: counted, known, and retention is due. */
  storedElsewhere(tokens: string[], bytes: number): void {
    this.#afterStored(tokens, bytes);
  }

  writeBatch(entries: readonly StoredEntry[]): void {
    if (this.#closed || (this.#closing && this.#local.givingUp)) {
      this.#report({
        stored: [],
        dropped: entries.map((entry) => entry.summary.token),
        warnings: [],
        dropReason: 'Profiles came after the profile store was closed, so they were dropped.',
      });
      return;
    }
    for (const entry of entries) this.#local.enqueue(entry);
  }

  has(token: string): boolean {
    return this.#waiting.has(token) || this.#known.has(token);
  }

  /**
   * A token reserved for this instance, or null when none is at hand: the database is away (or
   * this instance draws faster than the reservations come), and the caller draws one at random.
   */
  nextToken(): string | null {
    return this.#tokens.take();
  }

  /** Fills the pool of reserved tokens; never rejects. */
  reserveTokens(): Promise<void> {
    return this.#tokens.refill();
  }

  async read(token: string): Promise<Profile | null> {
    if (!isValidToken(token)) return null;
    const waiting = this.#waiting.get(token);
    if (waiting) return { ...parseProfile(token, { body: waiting.json }), instance: this.instance };
    // A row too large is measured, not fetched: anyone who can write to the database may plant one.
    const result = await this.#query<StoredBody & { instance: string }>(
      `SELECT CASE WHEN octet_length(p.body) <= $2 THEN p.body END AS body, octet_length(p.body) AS body_bytes, p.slot,
          CASE WHEN octet_length(b.body) <= $3 THEN b.body END AS block, octet_length(b.body) AS block_bytes, left(p.instance, ${SUMMARY_CHARS}) AS instance
        FROM ${T} p LEFT JOIN ${BLOCKS_TABLE} b ON b.id = p.block WHERE p.token = $1`,
      [token, MAX_INFLATED_BYTES, MAX_COMPRESSED_BYTES],
    );
    const row = result.rows[0];
    return row ? { ...parseProfile(token, row), instance: row.instance } : null;
  }

  async search(query: SearchQuery): Promise<ProfileSummary[]> {
    const limit = Math.max(0, Math.floor(query.limit));
    const offset = Math.max(0, Math.floor(query.offset ?? 0));
    if (limit === 0) return [];
    const condition = searchCondition(query, 1, await this.#named(query));
    // With profiles still queued, the stored ones they may come before are fetched too.
    const queued = this.#waiting.size > 0;
    const byArrival = query.order === 'arrival';
    const order = byArrival ? 'seq DESC' : 'time DESC, token DESC';
    const result = await this.#query<ProfileSummary & { seq?: string }>(
      `SELECT p.token, p.status, ${cut('p.ip')} AS ip, ${cut('p.method')} AS method, ${cut("coalesce(u.url, '')")} AS url, p.time, p.duration,
          ${cut('p.route')} AS route, ${cut('p.instance')} AS instance${byArrival ? ', p.seq' : ''}
        FROM (SELECT token, status, ip, method, url_hash, time, duration, route, instance, seq FROM ${T} ${condition.where}
          ORDER BY ${order} LIMIT ${queued ? offset + limit : limit} OFFSET ${queued ? 0 : offset}) AS p
        LEFT JOIN ${URLS_TABLE} u ON u.hash = p.url_hash ORDER BY p.${order.replaceAll(', ', ', p.')}`,
      condition.params,
    );
    const stored: ProfileSummary[] = result.rows.map(({ seq, ...row }) =>
      seq === undefined ? row : { ...row, arrival: Number(seq) },
    );
    for (const row of stored) this.#known.add(row.token);
    if (!queued) return stored;
    const seen = new Set(stored.map((row) => row.token));
    return queuedAndStored(
      this.#waitingMatches(query).filter((s) => !seen.has(s.token)),
      stored,
      query,
    );
  }

  async count(query: SearchQuery, atMost = Infinity): Promise<number> {
    const condition = searchCondition(query, 1, await this.#named(query));
    const totals = countableFromTotals(query);
    // count(*) goes through every match: bounded, it stops at atMost + 1 of them.
    const bounded = !totals && Number.isSafeInteger(atMost) && atMost >= 0;
    const sql = totals
      ? `SELECT coalesce(sum(profiles), 0)::int AS n FROM ${COUNTS_TABLE} ${condition.where}`
      : bounded
        ? `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${T} ${condition.where} LIMIT ${atMost + 1}) AS matches`
        : `SELECT count(*)::int AS n FROM ${T} ${condition.where}`;
    const result = await this.#query<{ n: number }>(sql, condition.params);
    const stored = result.rows[0].n;
    // Stopped: "more than atMost" as it is, queued matches or not.
    if (bounded && stored === atMost + 1) return stored;
    return stored + this.#waitingMatches(query).length;
  }

  /** The URLs and IPs the query's parts match, each unless too many (or no such part). */
  async #named(query: SearchQuery): Promise<NamedMatches> {
    const [urlHashes, ips] = await Promise.all([this.#urlHashes(query.url), this.#ips(query.ip)]);
    return { urlHashes, ips };
  }

  /** The hashes of the URLs containing `url`, unless there are more than MAX_NAMED_URLS. */
  async #urlHashes(url: string | undefined): Promise<string[] | undefined> {
    if (!url) return undefined;
    const lookup = urlLookup(url);
    const found = await this.#query<{ hash: string }>(lookup.text, lookup.params);
    return found.rows.length > MAX_NAMED_URLS ? undefined : found.rows.map((row) => row.hash);
  }

  /** The IPs containing `ip` (namedIps()), unless ipLookup() cannot name them all. */
  async #ips(ip: string | undefined): Promise<string[] | undefined> {
    if (!ip) return undefined;
    const lookup = ipLookup(ip);
    const found = await this.#query<{ ips: string[]; complete: boolean }>(lookup.text, lookup.params);
    return namedIps(ip, found.rows[0]);
  }

  /** Queued profiles that match (their summaries, as summarize() makes them). */
  #waitingMatches(query: SearchQuery): ProfileSummary[] {
    if (this.#waiting.size === 0) return [];
    const matches = summaryFilter(query);
    return [...this.#waiting.values()].map((q) => ({ ...q.summary, instance: this.instance })).filter(matches);
  }

  async prune(options: PruneOptions): Promise<number> {
    await this.flush();
    let removed = 0;
    if (options.olderThanMs !== undefined)
      removed += await this.#delete(`time < $1`, [Date.now() - options.olderThanMs]);
    if (options.keep !== undefined) removed += await this.#deleteBeyond(Math.max(0, Math.floor(options.keep)));
    await this.refreshTotals();
    return removed;
  }

  async clear(): Promise<void> {
    await this.flush();
    await this.#query(`DELETE FROM ${T}`);
    await this.#deleteUnusedBlocks();
    await this.#deleteUnusedUrls(null);
    this.#known.clear();
    await this.refreshTotals();
  }

  async flush(): Promise<void> {
    await this.#local.flush();
    await this.#retaining;
  }

  /**
   * Writes what is queued and gives the reserved tokens back, for CLOSE_WAIT_MS at most: a database
   * away or hanging (a statement waiting on a lock) is then left, what it did not take dropped and said.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#local.giveUpAfter(CLOSE_WAIT_MS);
      let deadline: NodeJS.Timeout | undefined;
      const answered = await Promise.race([
        this.#closeInOrder().then(() => true),
        new Promise<false>((resolve) => {
          deadline = setTimeout(() => resolve(false), CLOSE_WAIT_MS);
        }),
      ]);
      clearTimeout(deadline);
      this.#stopTimers();
      if (!answered) {
        const lost = [...this.#waiting.keys()];
        const what =
          lost.length === 0 ? '' : `: ${lost.length} profile${lost.length === 1 ? ' was' : 's were'} not written`;
        const reason = `The profile database did not answer within ${CLOSE_WAIT_MS / 1000} s, so the store was closed without waiting for it${what}.`;
        if (lost.length === 0) this.#warn(reason);
        else this.#report({ stored: [], dropped: lost, warnings: [], dropReason: reason });
      }
      const ended = this.#pool.end().catch(() => {});
      if (answered) await ended;
    })();
    return this.#closing;
  }

  async #closeInOrder(): Promise<void> {
    await this.flush();
    this.#stopTimers();
    await this.#allLearnt;
    await this.#learning;
    await this.#analyzing;
    await this.#tokens.close();
    await this.#retaining;
  }

  #stopTimers(): void {
    this.#closed = true;
    clearInterval(this.#tokenTimer);
    if (this.#learnAllTimer) {
      clearTimeout(this.#learnAllTimer);
      this.#skipLearningAll();
    }
    if (this.#retentionTimer) clearTimeout(this.#retentionTimer);
  }

  stats(): StoreStats {
    const queued = this.#waiting.size;
    return { profiles: this.#stored + queued, bytes: this.#bytes, queued, segments: 0 };
  }

  /** Gathers the planner's statistics of the profiles table in the background, unless under way (here or in another instance). */
  analyze(): void {
    if (this.#analyzing) return;
    this.#writtenSinceAnalyze = 0;
    this.#analyzing = this.#pool
      .query(`ANALYZE (SKIP_LOCKED) ${T}`)
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        this.#analyzing = null;
      });
  }

  /** Counts every instance's profiles again (other instances write and prune too). */
  async refreshTotals(): Promise<void> {
    this.#lastTotals = Date.now();
    const result = await this.#query<{ profiles: number; bytes: string }>(
      `SELECT coalesce(sum(profiles), 0)::int AS profiles, coalesce(sum(bytes), 0)::text AS bytes FROM ${COUNTS_TABLE}`,
    );
    this.#stored = result.rows[0].profiles;
    this.#bytes = Number(result.rows[0].bytes);
  }

  /** Tells the hand-off what a batch came to; without one, why profiles were dropped is warned of here. */
  #report(report: WrittenReport): void {
    if (this.#onWritten) this.#onWritten(report);
    else if (report.dropped.length > 0 && report.dropReason) this.#warn(report.dropReason);
  }

  /** Tokens now in the table (written here or by the worker): counted, known, and retention is due. */
  #afterStored(written: string[], bytes: number): void {
    this.#stored += written.length;
    this.#bytes += bytes;
    this.#writtenSinceAnalyze += written.length;
    // Against the table as it was when last analysed, which these rows were not part of.
    if (
      this.#writtenSinceAnalyze >
      ANALYZE_AFTER_ROWS + (this.#stored - this.#writtenSinceAnalyze) * ANALYZE_AFTER_SHARE
    )
      this.analyze();
    for (const token of written) this.#known.add(token);
    this.#retentionDue = true;
    if (this.#retaining || this.#closed) return;
    if (Date.now() - this.#lastRetention >= RETENTION_INTERVAL_MS) this.#retain();
    else
      this.#retentionTimer ??= setTimeout(() => {
        this.#retentionTimer = null;
        if (this.#retentionDue && !this.#local.down && !this.#closed) this.#retain();
      }, RETENTION_INTERVAL_MS).unref();
  }

  #retain(): void {
    if (this.#retaining) return;
    this.#retaining = this.#enforceRetention()
      .catch(() => {})
      .finally(() => {
        this.#retaining = null;
      });
  }

  /** Retention over every instance's profiles: age, count, then bytes. */
  async #enforceRetention(): Promise<void> {
    this.#lastRetention = Date.now();
    this.#retentionDue = false;
    await this.#delete('time < $1', [Date.now() - this.limits.maxAgeMs]);
    if (Date.now() - this.#lastTotals >= TOTALS_INTERVAL_MS) await this.refreshTotals();
    if (this.#stored > this.limits.maxProfiles) {
      await this.#deleteBeyond(this.limits.maxProfiles);
      await this.refreshTotals();
    }
    if (this.#bytes > this.limits.maxBytes) {
      await this.#delete(
        `(time, token) <= (SELECT time, token FROM (SELECT time, token, sum(bytes) OVER (ORDER BY time DESC, token DESC) AS total FROM ${T}) AS newest
        WHERE total > $1 ORDER BY time DESC, token DESC LIMIT 1)`,
        [this.limits.maxBytes],
      );
      await this.refreshTotals();
    }
  }

  /** Removes all but the newest `keep`; resolves to how many. */
  #deleteBeyond(keep: number): Promise<number> {
    return this.#delete(
      `(time, token) <= (SELECT time, token FROM ${T} ORDER BY time DESC, token DESC OFFSET $1 LIMIT 1)`,
      [keep],
    );
  }

  async #delete(condition: string, params: unknown[]): Promise<number> {
    const result = await this.#query<{ token: string; bytes: number; url_hash: string }>(
      `DELETE FROM ${T} WHERE ${condition} RETURNING token, bytes, url_hash`,
      params,
    );
    const urls = new Set<string>();
    for (const row of result.rows) {
      this.#known.delete(row.token);
      this.#bytes -= row.bytes;
      urls.add(row.url_hash);
    }
    this.#stored = Math.max(0, this.#stored - result.rows.length);
    if (result.rows.length > 0) {
      await this.#deleteUnusedBlocks();
      await this.#deleteUnusedUrls([...urls]);
    }
    return result.rows.length;
  }

  /**
   * Deletes those of the URLs (every URL when null) that no profile names any more, so that the
   * table holds no more URLs than the profiles do. A writer's statement adds its URLs to the
   * table unless there already: the table is locked against writers (who wait a moment) so that
   * no profile of a writer still under way names a URL deleted from under it.
   */
  async #deleteUnusedUrls(candidates: string[] | null): Promise<void> {
    const unused = `NOT EXISTS (SELECT FROM ${T} p WHERE p.url_hash = u.hash)`;
    const among = candidates === null ? '' : 'u.hash = ANY($1::uuid[]) AND';
    const params = candidates === null ? [] : [candidates];
    // Most often every URL is still named: then no lock at all.
    const found = await this.#query(`SELECT FROM ${URLS_TABLE} u WHERE ${among} ${unused} LIMIT 1`, params);
    if (found.rowCount === 0) return;
    let client: pg.PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw unavailable(error);
    }
    try {
      await client.query('BEGIN');
      await client.query(`LOCK TABLE ${URLS_TABLE} IN SHARE MODE`);
      await client.query(`DELETE FROM ${URLS_TABLE} u WHERE ${among} ${unused}`, params);
      await client.query('COMMIT');
      client.release();
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      client.release(error as Error);
      throw isConnectionError(error) ? unavailable(error) : error;
    }
  }

  /**
   * Deletes the blocks older than every stored profile, whose profiles are therefore all gone
   * (retention and prune delete the oldest). One statement sees a writer's block and its profiles
   * together or neither; a block whose profiles were all refused (their tokens taken) waits for
   * retention to pass it.
   */
  async #deleteUnusedBlocks(): Promise<void> {
    await this.#query(`DELETE FROM ${BLOCKS_TABLE} WHERE newest < coalesce((SELECT min(time) FROM ${T}), 'Infinity')`);
  }

  /**
   * learnAllTokens() a moment after the store opens, without waiting for it: a server starts at once
   * whatever the table holds (a million rows take seconds to read), since its tokens come from ranges
   * the database reserves, which leave out stored ones (postgres-token-pool.ts). Only a token drawn at
   * random meanwhile (the database away, no range at hand) may be one already stored; its profile is
   * then dropped and counted.
   */
  learnAllTokensSoon(): void {
    this.#allLearnt = new Promise<void>((resolve) => {
      this.#learnAllTimer = setTimeout(() => {
        this.#learnAllTimer = null;
        this.learnAllTokens()
          .catch((error) => {
            this.#warn(
              `The profile database's stored tokens could not be read (${(error as Error).message}): a token drawn at random may be one already stored.`,
            );
          })
          .finally(resolve);
      }, LEARN_ALL_AFTER_MS);
      this.#learnAllTimer.unref();
      this.#skipLearningAll = resolve;
    });
  }

  /**
   * Learns every token in the table, for has(): those of the other instances and those an earlier
   * run of this instance (the same host name and port) wrote, which the later lookups leave out.
   * Read in pages of LEARN_PAGE_ROWS by the token index, so that the event loop is never held long.
   */
  async learnAllTokens(): Promise<void> {
    let after = '';
    for (;;) {
      if (this.#closed) return;
      // The newest seq as the first page is read: the rows committed later are the later lookups'.
      const newest = after === '' ? `(SELECT max(seq) FROM ${T})::text` : 'NULL';
      const result = await this.#query<{ token: string; seq: string | null }>(
        `SELECT token, ${newest} AS seq
        FROM ${T} WHERE token > $1 ORDER BY token LIMIT ${LEARN_PAGE_ROWS}`,
        [after],
      );
      for (const row of result.rows) this.#known.add(row.token);
      if (after === '' && result.rows.length > 0)
        this.#lastSeq = Math.max(this.#lastSeq, Number(result.rows[0].seq ?? 0));
      if (result.rows.length < LEARN_PAGE_ROWS) break;
      after = result.rows[result.rows.length - 1].token;
      await new Promise((resume) => setImmediate(resume));
    }
  }

  /** Learns the tokens other instances wrote since last time, for has(). */
  async #learnTokens(): Promise<void> {
    if (this.#local.down || this.#closing) return;
    // Rows a slower transaction commits late may carry a lower seq: look back a little. The last
    // row (no token) is the newest seq of all, this instance's included: looking from the newest
    // of the others' alone, a server writing alone read every row it wrote, twice a second.
    const result = await this.#pool.query<{ token: string | null; seq: string | null; bytes: number }>(
      `SELECT token, seq::text AS seq, bytes FROM ${T} WHERE seq > $1 AND instance <> $2
        UNION ALL SELECT NULL, max(seq)::text, NULL FROM ${T}`,
      [Math.max(0, this.#lastSeq - BATCH_ROWS * 4), this.instance],
    );
    if (this.#known.size > 4 * this.limits.maxProfiles) this.#known.clear();
    for (const row of result.rows) {
      if (row.token === null) {
        if (row.seq !== null) this.#lastSeq = Math.max(this.#lastSeq, Number(row.seq));
        continue;
      }
      // Another instance's new profile counts towards the retention bounds, which hold for all together.
      if (!this.#known.has(row.token)) {
        this.#stored++;
        this.#bytes += row.bytes;
      }
      this.#known.add(row.token);
      this.#lastSeq = Math.max(this.#lastSeq, Number(row.seq));
    }
  }

  async #query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      return await this.#pool.query<R>(sql, params);
    } catch (error) {
      throw isConnectionError(error) ? unavailable(error) : error;
    }
  }
}

/** Who serves the profiles the store writes: the server's shared name, else `instance`, else host name:process id. */
function serverNameOf(options: PostgresStorageOptions): ServerName {
  const name = options.serverName ?? new ServerName();
  if (options.instance !== undefined) name.set(options.instance);
  else if (name.get() === '') name.set(`${hostname()}:${process.pid}`);
  return name;
}

/** Whether the table changed by more than ANALYZE_AFTER_SHARE (and ANALYZE_AFTER_ROWS) since its statistics were gathered, or never had any. */
async function statisticsStale(pool: pg.Pool): Promise<boolean> {
  const result = await pool.query<{ stale: boolean }>(
    `SELECT c.reltuples < 0 OR s.n_mod_since_analyze > $1 + c.reltuples * $2 AS stale
      FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.oid = '${T}'::regclass`,
    [ANALYZE_AFTER_ROWS, ANALYZE_AFTER_SHARE],
  );
  return result.rows[0]?.stale ?? false;
}

function unavailable(error: unknown): AppError {
  return new AppError(
    'APP_ERR_PROFILER_STORE_UNAVAILABLE',
    `The profile database cannot be reached (${(error as Error).message}).`,
    { cause: error },
  );
}

/** A profile's body as read: its own (rows written before blocks, a queued profile), or its block and line. */
/**
 * A summary field longer than this (a URL of megabytes planted in the database) is cut in the query,
 * an ellipsis at its end: a list or a search page never carries more. Real ones are far shorter (a
 * request head is at most 32 KB).
 */
const SUMMARY_CHARS = 4_096;

function cut(column: string): string {
  return `CASE WHEN length(${column}) > ${SUMMARY_CHARS} THEN left(${column}, ${SUMMARY_CHARS}) || '…' ELSE ${column} END`;
}

interface StoredBody {
  body: Buffer | null;
  block?: Buffer | null;
  slot?: number | null;
  /** the sizes in the database, when the bytes were left there for being too large */
  body_bytes?: number | null;
  block_bytes?: number | null;
}

function parseProfile(token: string, stored: StoredBody): Profile {
  try {
    if (stored.body === null && stored.body_bytes != null) {
      throw new Error(`it is ${stored.body_bytes} bytes, more than the ${MAX_INFLATED_BYTES} a profile may take`);
    }
    if (stored.block === null && stored.block_bytes != null) {
      throw new Error(
        `its block is ${stored.block_bytes} bytes compressed, more than the ${MAX_COMPRESSED_BYTES} a profile may take`,
      );
    }
    let json = stored.body;
    if (json === null) {
      if (!stored.block) throw new Error('its block is missing');
      json = bodyAt(stored.block, stored.slot ?? 0);
    }
    const read = readStoredEntry(json);
    if (!read.ok) throw new Error(read.problem);
    return read.profile;
  } catch (error) {
    throw new AppError(
      'APP_ERR_PROFILER_STORE_CORRUPT',
      `Profile "${token}" in the profile database is corrupt: ${(error as Error).message}.`,
      { cause: error },
    );
  }
}
