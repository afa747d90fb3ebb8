import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AppError } from '../../../../core/errors.js';
import { openProfileIntake } from '../../../../core/profiler/handoff/profile-intake.js';
import { openPostgresStorage } from '../../../../core/profiler/storage/postgres-storage.js';
import { startTempPostgres, sql } from '../../../helpers/temp-postgres.js';
import { profile404 } from '../fixtures.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';

const test = suite(
  'a profile database refusing connections for a while (too many connections) keeps the profiles queued, not dropped',
);
const server = await startTempPostgres();
const SLOTS = 3;

/** A fresh database owned by a role of its own that may hold SLOTS connections at once; its URL. */
async function limitedDatabase(): Promise<string> {
  const url = await server.createDatabase();
  const role = `limited_${process.pid}_${Date.now().toString(36)}`;
  const database = new URL(url).pathname.slice(1);
  await sql(url, `CREATE ROLE ${role} LOGIN PASSWORD 'limited-pw' CONNECTION LIMIT ${SLOTS}`);
  await sql(url, `ALTER DATABASE ${database} OWNER TO ${role}`);
  const limited = new URL(url);
  limited.username = role;
  limited.password = 'limited-pw';
  return limited.toString();
}

/** Ends every connection of the role, then takes all its slots; resolves to their release. */
async function takeEverySlot(adminUrl: string, url: string): Promise<() => Promise<void>> {
  const role = new URL(url).username;
  await sql(adminUrl, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
  const held: pg.Client[] = [];
  for (let i = 0; i < SLOTS; i++) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    held.push(client);
  }
  return async () => {
    await Promise.all(held.map((client) => client.end()));
  };
}

test('when every connection the role may hold is taken while a profile is written, then it is queued, said so, and written once a connection is free', async () => {
  const url = await limitedDatabase();
  const warnings: string[] = [];
  const storage = await openProfileIntake(url, { instance: 'host-a:8001', warn: (m) => warnings.push(m) });
  try {
    const release = await takeEverySlot(server.url, url);
    storage.writeBatch([storedEntry(profile404({ token: 'c0ffe1', time: Date.now() }))]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.match(warnings.join('\n'), /too many connections.*queued/);
    await release();
    await storage.flush();
    assert.is((await storage.read('c0ffe1'))?.token, 'c0ffe1');
    assert.is(storage.stats().dropped, 0, warnings.join('\n'));
  } finally {
    await storage.close();
  }
});

test('when every connection is taken as the store opens, then one line says the database refuses more connections, not that it cannot be reached', async () => {
  const url = await limitedDatabase();
  const first = await openPostgresStorage({ url, onWarning: () => {} });
  await first.close();
  const release = await takeEverySlot(server.url, url);
  try {
    await openPostgresStorage({ url, onWarning: () => {} });
    assert.unreachable('opened');
  } catch (error) {
    assert.instance(error, AppError);
    assert.is((error as AppError).code, 'APP_ERR_PROFILER_STORE_UNAVAILABLE');
    assert.match((error as AppError).message, /too many connections for role/);
    assert.not.match((error as AppError).message, /is PostgreSQL running there|limited-pw/);
  } finally {
    await release();
  }
});

test.run();
