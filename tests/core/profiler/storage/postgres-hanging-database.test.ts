import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openProfileIntake, type ProfileIntake } from '../../../../core/profiler/handoff/profile-intake.js';
import { PROFILES_TABLE } from '../../../../core/profiler/storage/postgres-schema.js';
import { startTempPostgres, sql } from '../../../helpers/temp-postgres.js';
import { profile200 } from '../fixtures.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';

const test = suite('a profile database that hangs without an error (its table locked by someone else)');
const server = await startTempPostgres();
/** the longest a test holds the lock, so that a store that waits for it still ends */
const LOCK_HELD_MS = 25_000;

interface Locked {
  release(): Promise<void>;
}

/** Locks the profiles table from another connection, as a migration or a VACUUM FULL would; released after LOCK_HELD_MS at the latest. */
async function lockProfiles(url: string): Promise<Locked> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${PROFILES_TABLE} IN ACCESS EXCLUSIVE MODE`);
  let released: Promise<void> | null = null;
  const release = () => (released ??= client.query('ROLLBACK').then(() => client.end()));
  setTimeout(() => void release(), LOCK_HELD_MS).unref();
  return { release };
}

/** The store as a server opens it: behind its intake, which counts what the store drops. */
async function openStore(url: string, warnings: string[]): Promise<ProfileIntake> {
  const storage = await openProfileIntake(url, { instance: 'host-a:8001', warn: (m) => warnings.push(m) });
  storage.writeBatch([storedEntry(profile200({ token: 'a11a11', time: Date.now() }))]);
  await storage.flush();
  return storage;
}

test("when the table stays locked, then the store looks up the other servers' tokens one statement at a time, leaving its other connections free", async () => {
  const url = await server.createDatabase();
  const storage = await openStore(url, []);
  const lock = await lockProfiles(url);
  try {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const waiting = await sql(
      url,
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid() AND (query LIKE '%instance <> $2%' OR query LIKE '%WHERE token > $1 ORDER BY token LIMIT%')`,
    );
    assert.is(waiting.rows[0].n, 1);
  } finally {
    await lock.release();
    await storage.close();
  }
});

test('when the table stays locked as the store closes, then close() ends within 10 s and says what it did not write', async () => {
  const url = await server.createDatabase();
  const warnings: string[] = [];
  const storage = await openStore(url, warnings);
  const lock = await lockProfiles(url);
  try {
    storage.writeBatch([storedEntry(profile200({ token: 'b22b22', time: Date.now() }))]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const start = Date.now();
    await storage.close();
    const took = Date.now() - start;
    assert.ok(took < 11_000, `close() took ${took} ms`);
    assert.match(
      warnings.join('\n'),
      /The profile database did not answer within 10 s, so the store was closed without waiting for it: 1 profile was not written\./,
    );
    assert.is(storage.stats().dropped, 1);
  } finally {
    await lock.release();
  }
});

test.run();
