import type pg from 'pg';
import { AppError } from '../../errors.js';

export const PROFILES_TABLE = 'appkernel_profiles';
/** How many profiles (and their bytes) per status, method and profiler flag: counts without scanning. */
export const COUNTS_TABLE = 'appkernel_profile_counts';
/** Schema 4's reservations, a row per token; replaced by TOKEN_RANGES_TABLE. */
const RESERVATIONS_TABLE = 'appkernel_token_reservations';
/** Ranges of tokens (a 3-hex-digit prefix) an instance claimed for the profiles it writes, so that no other instance draws them. */
export const TOKEN_RANGES_TABLE = 'appkernel_token_ranges';
/** Profile bodies, deflated together a batch's worth at a time (postgres-blocks.ts); a profile row names its block and line. */
export const BLOCKS_TABLE = 'appkernel_profile_blocks';
/** Each distinct URL once, keyed by its MD5 as a uuid; a profile row names its URL's key. */
export const URLS_TABLE = 'appkernel_urls';
const VERSION_TABLE = 'appkernel_schema';
/**
 * The loopback addresses, which the IP index leaves out: a server in development answers little
 * else, and its profiles then cost that index nothing (an entry cost the database 1.75 µs more per
 * profile written, 15%). An IP part matching one is matched walking the time index, as before.
 */
export const LOOPBACK_IPS: readonly string[] = ['127.0.0.1', '::1'];
/**
 * The rows the IP index holds, word for word as schema 10 made it (the planner uses a partial index
 * only for a query that says its condition): not a loopback address, and shorter than 64
 * characters (every real address; an X-Forwarded-For hop is any text, and a long one might not fit
 * a btree entry).
 */
export const IP_INDEX_CONDITION = `length(ip) < 64 AND ip <> '127.0.0.1' AND ip <> '::1'`;

/**
 * Each entry brings the schema from the version before it to its own number (index + 1).
 * Never edit a released entry: append one.
 */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE ${PROFILES_TABLE} (
      token text COLLATE "C" PRIMARY KEY,
      time double precision NOT NULL,
      status integer NOT NULL,
      ip text NOT NULL,
      method text NOT NULL,
      url text NOT NULL,
      duration double precision NOT NULL,
      instance text NOT NULL,
      profiler boolean NOT NULL,
      bytes integer NOT NULL,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      body bytea NOT NULL
    )`,
    `CREATE INDEX ${PROFILES_TABLE}_time ON ${PROFILES_TABLE} (time DESC, token DESC)`,
    `CREATE INDEX ${PROFILES_TABLE}_status ON ${PROFILES_TABLE} (status, time DESC, token DESC)`,
    `CREATE INDEX ${PROFILES_TABLE}_method ON ${PROFILES_TABLE} (upper(method), time DESC, token DESC)`,
    `CREATE INDEX ${PROFILES_TABLE}_visible ON ${PROFILES_TABLE} (profiler, time DESC, token DESC)`,
    `CREATE INDEX ${PROFILES_TABLE}_seq ON ${PROFILES_TABLE} (seq)`,
  ],
  [`ALTER TABLE ${PROFILES_TABLE} ADD COLUMN route text`],
  [
    `CREATE TABLE ${COUNTS_TABLE} (
      profiler boolean NOT NULL,
      status integer NOT NULL,
      method text COLLATE "C" NOT NULL,
      profiles bigint NOT NULL,
      bytes bigint NOT NULL,
      PRIMARY KEY (profiler, status, method)
    )`,
    `INSERT INTO ${COUNTS_TABLE} SELECT profiler, status, upper(method), count(*), sum(bytes) FROM ${PROFILES_TABLE} GROUP BY 1, 2, 3`,
    // Rows are locked in key order, so that concurrent writers and pruners never deadlock.
    `CREATE FUNCTION ${COUNTS_TABLE}_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${COUNTS_TABLE} AS c SELECT profiler, status, upper(method), count(*), sum(bytes) FROM added GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
          ON CONFLICT (profiler, status, method) DO UPDATE SET profiles = c.profiles + EXCLUDED.profiles, bytes = c.bytes + EXCLUDED.bytes;
        RETURN NULL;
      END $$`,
    `CREATE FUNCTION ${COUNTS_TABLE}_remove() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE ${COUNTS_TABLE} AS c SET profiles = c.profiles - r.profiles, bytes = c.bytes - r.bytes
          FROM (SELECT profiler, status, upper(method) AS method, count(*) AS profiles, sum(bytes) AS bytes FROM removed GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) AS r
          WHERE (c.profiler, c.status, c.method) = (r.profiler, r.status, r.method);
        RETURN NULL;
      END $$`,
    `CREATE TRIGGER ${COUNTS_TABLE}_add AFTER INSERT ON ${PROFILES_TABLE} REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ${COUNTS_TABLE}_add()`,
    `CREATE TRIGGER ${COUNTS_TABLE}_remove AFTER DELETE ON ${PROFILES_TABLE} REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ${COUNTS_TABLE}_remove()`,
    `DROP INDEX IF EXISTS ${PROFILES_TABLE}_ip_trgm`,
    `CREATE INDEX ${PROFILES_TABLE}_status_class ON ${PROFILES_TABLE} ((status / 100), time DESC, token DESC)`,
    // Statistics and the trigram indexes' pending lists kept fresh while the table grows.
    `ALTER TABLE ${PROFILES_TABLE} SET (autovacuum_analyze_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.05)`,
  ],
  [
    `CREATE TABLE ${RESERVATIONS_TABLE} (
      token text COLLATE "C" PRIMARY KEY,
      instance text NOT NULL,
      reserved_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX ${RESERVATIONS_TABLE}_reserved_at ON ${RESERVATIONS_TABLE} (reserved_at)`,
  ],
  [
    `DROP TABLE ${RESERVATIONS_TABLE}`,
    `CREATE TABLE ${TOKEN_RANGES_TABLE} (
      prefix text COLLATE "C" PRIMARY KEY,
      claimant text NOT NULL,
      instance text NOT NULL,
      reserved_at timestamptz NOT NULL DEFAULT now()
    )`,
  ],
  [
    // Rows written before keep their body; later ones name a block and a line instead.
    `CREATE TABLE ${BLOCKS_TABLE} (
      id bigserial PRIMARY KEY,
      newest double precision NOT NULL,
      body bytea NOT NULL
    )`,
    // Deflated already: stored out of line as they are, never compressed again.
    `ALTER TABLE ${BLOCKS_TABLE} ALTER COLUMN body SET STORAGE EXTERNAL`,
    `CREATE INDEX ${BLOCKS_TABLE}_newest ON ${BLOCKS_TABLE} (newest)`,
    `ALTER TABLE ${PROFILES_TABLE} ALTER COLUMN body DROP NOT NULL, ADD COLUMN block bigint, ADD COLUMN slot integer`,
  ],
  [
    // Every index costs each insert. An exact status is found walking its class's index (the
    // search names both); the profiler's own requests are left out walking the time index.
    `DROP INDEX IF EXISTS ${PROFILES_TABLE}_status`,
    `DROP INDEX IF EXISTS ${PROFILES_TABLE}_visible`,
  ],
  [
    // A server answers a few distinct URLs over and over: the trigram index covers each once, and a
    // profile row costs one small btree entry instead of a trigram index entry per three letters.
    `CREATE TABLE ${URLS_TABLE} (
      hash uuid PRIMARY KEY,
      url text NOT NULL
    )`,
    `INSERT INTO ${URLS_TABLE} (hash, url) SELECT DISTINCT ON (1) md5(url)::uuid, url FROM ${PROFILES_TABLE}`,
    `ALTER TABLE ${PROFILES_TABLE} ADD COLUMN url_hash uuid`,
    `UPDATE ${PROFILES_TABLE} SET url_hash = md5(url)::uuid`,
    `ALTER TABLE ${PROFILES_TABLE} ALTER COLUMN url_hash SET NOT NULL, DROP COLUMN url`,
    `CREATE INDEX ${PROFILES_TABLE}_url ON ${PROFILES_TABLE} (url_hash)`,
  ],
  [
    // The class and method indexes leave out the kind most requests are (2xx, GET): a search for
    // it finds its newest matches walking the time index, and the rows of that kind cost no entry
    // there. The time index ascending: a new row's entry goes at its end, where PostgreSQL
    // appends without a descent from the root (descending, at its start, it descended each time).
    // Searches walk them backwards, newest first all the same.
    `DROP INDEX ${PROFILES_TABLE}_time`,
    `CREATE INDEX ${PROFILES_TABLE}_time ON ${PROFILES_TABLE} (time, token)`,
    `DROP INDEX ${PROFILES_TABLE}_status_class`,
    `CREATE INDEX ${PROFILES_TABLE}_status_class ON ${PROFILES_TABLE} ((status / 100), time, token) WHERE status / 100 <> 2`,
    `DROP INDEX ${PROFILES_TABLE}_method`,
    `CREATE INDEX ${PROFILES_TABLE}_method ON ${PROFILES_TABLE} (upper(method), time, token) WHERE upper(method) <> 'GET'`,
    // A block (a dozen profiles deflated, 4 KB or so) stays in its row up to a page's size: out of
    // line, it cost three rows of the TOAST table and their index entries.
    `ALTER TABLE ${BLOCKS_TABLE} SET (toast_tuple_target = 8160)`,
  ],
  [
    // A page counts its matches (up to 10,000) beside its rows, and leaves out the profiler's own
    // requests: an index that holds the profiler flag counts without reading the table (an index-only
    // scan that stops at the bound). At a million profiles, walking the table to count an IP's or a
    // token prefix's matches took 58 and 24 ms, the indexes take 2 and 3.
    // The token key carries the flag: a bool fits in the entry's padding, so it costs no more.
    `CREATE UNIQUE INDEX ${PROFILES_TABLE}_token ON ${PROFILES_TABLE} (token) INCLUDE (profiler)`,
    `ALTER TABLE ${PROFILES_TABLE} DROP CONSTRAINT ${PROFILES_TABLE}_pkey`,
    `ALTER TABLE ${PROFILES_TABLE} ADD CONSTRAINT ${PROFILES_TABLE}_pkey PRIMARY KEY USING INDEX ${PROFILES_TABLE}_token`,
    // A server sees a few addresses: their entries share one key each (deduplicated, a few bytes a
    // row), and an IP part is looked up among them (ipLookup()). The second index, empty but for IPs
    // too long for the first, tells a search that there are some (keyed by the length, the one
    // index a search for the longest can walk: with no statistics of the length, the planner would
    // read the table).
    `CREATE INDEX ${PROFILES_TABLE}_ip ON ${PROFILES_TABLE} (ip, profiler) WHERE ${IP_INDEX_CONDITION}`,
    `CREATE INDEX ${PROFILES_TABLE}_long_ip ON ${PROFILES_TABLE} (length(ip)) WHERE length(ip) >= 64`,
    // A URL's profiles newest first: the newest 20 of a rare URL are its last 20 entries, where they
    // were all of its profiles fetched and sorted.
    `DROP INDEX ${PROFILES_TABLE}_url`,
    `CREATE INDEX ${PROFILES_TABLE}_url ON ${PROFILES_TABLE} (url_hash, time, token) INCLUDE (profiler)`,
  ],
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * URL substring searches use a trigram index when the pg_trgm extension can be had (on the profiles
 * until schema 8, on the distinct URLs since). IP substrings
 * are matched walking the time index: a few addresses fill a table, and an IP trigram index cost
 * every write a fifth more.
 */
const TRIGRAM_INDEXES = [
  `CREATE INDEX IF NOT EXISTS ${PROFILES_TABLE}_url_trgm ON ${PROFILES_TABLE} USING gin (url gin_trgm_ops)`,
];

/** Schema 8's: on the distinct URLs, with the same pending list limit. */
const URL_TRIGRAM_INDEXES = [
  'CREATE EXTENSION IF NOT EXISTS pg_trgm',
  `CREATE INDEX IF NOT EXISTS ${URLS_TABLE}_url_trgm ON ${URLS_TABLE} USING gin (url gin_trgm_ops) WITH (gin_pending_list_limit = 256)`,
];

/**
 * A trigram index's pending list (new entries not yet merged) is read through by every search:
 * kept small, searches stay fast while profiles arrive.
 */
const TRIGRAM_PENDING_LIMITS = [`ALTER INDEX IF EXISTS ${PROFILES_TABLE}_url_trgm SET (gin_pending_list_limit = 256)`];

/**
 * Schema 9's: the planner's statistics of a status class and an upper-cased method, which the
 * partial indexes do not give it (PostgreSQL 14 and later). Without them it guesses every class
 * and method rare, and may sort all of a table's profiles for the newest 2xx or GET ones.
 */
const KIND_STATISTICS = [
  `CREATE STATISTICS IF NOT EXISTS ${PROFILES_TABLE}_status_class ON ((status / 100)) FROM ${PROFILES_TABLE}`,
  `CREATE STATISTICS IF NOT EXISTS ${PROFILES_TABLE}_method ON (upper(method)) FROM ${PROFILES_TABLE}`,
];

/**
 * Creates the tables or upgrades them to SCHEMA_VERSION, one instance at a time (an advisory
 * lock): instances started together migrate once. A newer schema is refused. `upTo` is for tests
 * that need an older schema.
 */
export async function migrate(client: pg.ClientBase, upTo = SCHEMA_VERSION): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('${VERSION_TABLE}'))`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), version integer NOT NULL)`,
    );
    const found = await client.query<{ version: number }>(`SELECT version FROM ${VERSION_TABLE}`);
    const current = found.rows[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new AppError(
        'APP_ERR_PROFILER_STORE_SCHEMA',
        `The profile database holds schema version ${current}, newer than this appkernel knows (${SCHEMA_VERSION}): upgrade appkernel, or use another database.`,
      );
    }
    for (let version = current + 1; version <= upTo; version++) {
      for (const statement of MIGRATIONS[version - 1]) await client.query(statement);
      if (version === 1) {
        await optional(client, [`ALTER TABLE ${PROFILES_TABLE} ALTER COLUMN body SET COMPRESSION lz4`]);
        await optional(client, ['CREATE EXTENSION IF NOT EXISTS pg_trgm', ...TRIGRAM_INDEXES]);
      }
      if (version === 3) await optional(client, TRIGRAM_PENDING_LIMITS);
      if (version === 8) await optional(client, URL_TRIGRAM_INDEXES);
      if (version === 9) await optional(client, KIND_STATISTICS);
    }
    if (upTo > current) {
      await client.query(
        `INSERT INTO ${VERSION_TABLE} (version) VALUES ($1) ON CONFLICT (only_row) DO UPDATE SET version = EXCLUDED.version`,
        [upTo],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * What a server may lack: lz4 (a server built without it compresses profiles with the slower
 * pglz), pg_trgm (URL substrings are then matched by scanning the distinct URLs).
 */
async function optional(client: pg.ClientBase, statements: readonly string[]): Promise<void> {
  await client.query('SAVEPOINT optional');
  try {
    for (const statement of statements) await client.query(statement);
    await client.query('RELEASE SAVEPOINT optional');
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT optional');
  }
}
