import type pg from 'pg';
import { AppError } from '../../errors.js';

export const PROFILES_TABLE = 'appkernel_profiles';
const VERSION_TABLE = 'appkernel_schema';

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
  [
    `ALTER TABLE ${PROFILES_TABLE} ADD COLUMN route text`,
  ],
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Substring searches on URL and IP use trigram indexes when the pg_trgm extension can be had. */
const TRIGRAM_INDEXES = [
  `CREATE INDEX IF NOT EXISTS ${PROFILES_TABLE}_url_trgm ON ${PROFILES_TABLE} USING gin (url gin_trgm_ops)`,
  `CREATE INDEX IF NOT EXISTS ${PROFILES_TABLE}_ip_trgm ON ${PROFILES_TABLE} USING gin (ip gin_trgm_ops)`,
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
    await client.query(`CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), version integer NOT NULL)`);
    const found = await client.query<{ version: number }>(`SELECT version FROM ${VERSION_TABLE}`);
    const current = found.rows[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new AppError('APP_ERR_PROFILER_STORE_SCHEMA',
        `The profile database holds schema version ${current}, newer than this appkernel knows (${SCHEMA_VERSION}): upgrade appkernel, or use another database.`);
    }
    for (let version = current + 1; version <= upTo; version++) {
      for (const statement of MIGRATIONS[version - 1]) await client.query(statement);
      if (version === 1) {
        await optional(client, [`ALTER TABLE ${PROFILES_TABLE} ALTER COLUMN body SET COMPRESSION lz4`]);
        await optional(client, ['CREATE EXTENSION IF NOT EXISTS pg_trgm', ...TRIGRAM_INDEXES]);
      }
    }
    if (upTo > current) {
      await client.query(`INSERT INTO ${VERSION_TABLE} (version) VALUES ($1) ON CONFLICT (only_row) DO UPDATE SET version = EXCLUDED.version`, [upTo]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * What a server may lack: lz4 (a server built without it compresses profiles with the slower
 * pglz), pg_trgm (URL and IP substrings are then matched by scanning newest first).
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
