import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openPostgresStorage, type PostgresStorage } from '../../../../core/profiler/storage/postgres-storage.js';
import { migrate, SCHEMA_VERSION } from '../../../../core/profiler/storage/postgres-schema.js';
import { TokenPool } from '../../../../core/profiler/storage/postgres-token-pool.js';
import { generateToken } from '../../../../core/profiler/token.js';
import { waitFor } from '../../../helpers/poll.js';
import { startTempPostgres, sql } from '../../../helpers/temp-postgres.js';
import { profile200 } from '../fixtures.js';

// One server for the file (stopped and removed when the process exits); each test gets a database of its own.
const server = await startTempPostgres();
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

const opened: PostgresStorage[] = [];
const pools: pg.Pool[] = [];
async function open(url: string, instance: string): Promise<PostgresStorage> {
  const storage = await openPostgresStorage({ url, instance, onWarning: () => {} });
  opened.push(storage);
  return storage;
}

function poolFor(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  return pool;
}

const count = async (url: string, table: string): Promise<number> => (await sql(url, `SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));
/** the tokens 000000 … of a small space, so that random candidates collide all the time */
const small = (space: number) => (n: number): string[] => Array.from({ length: n }, () => Math.floor(Math.random() * space).toString(16).padStart(6, '0'));

/** Takes `n` tokens from the pool, waiting for refills when it runs dry; fails when they do not come within 60 s. */
async function takeMany(pool: TokenPool, n: number): Promise<string[]> {
  const tokens: string[] = [];
  const deadline = Date.now() + 60_000;
  while (tokens.length < n) {
    if (Date.now() > deadline) throw new Error(`only ${tokens.length} of ${n} reserved tokens came within 60 s`);
    const token = pool.take();
    if (token === null) await pool.refill();
    else tokens.push(token);
    if (tokens.length % 97 === 0) await yieldTurn();
  }
  return tokens;
}

/** A pool on a database with the current schema. */
async function databaseWithSchema(): Promise<string> {
  const url = await server.createDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await migrate(client);
  await client.end();
  return url;
}

async function storeProfile(url: string, token: string): Promise<void> {
  await sql(url, `INSERT INTO appkernel_profiles (token, time, status, ip, method, url, duration, instance, profiler, bytes, body)
    VALUES ($1, $2, 200, '127.0.0.1', 'GET', 'http://x/stored', 1, 'other:1', false, 2, '\\x7b7d')`, [token, T0]);
}

const test = suite('PostgreSQL store: tokens reserved across instances');
test.after.each(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

test('when two pools on one database reserve from the same small space at once, then they never hand out the same token', async () => {
  const url = await databaseWithSchema();
  const a = new TokenPool(poolFor(url), () => 'host-a:1', small(0x10000));
  const b = new TokenPool(poolFor(url), () => 'host-b:2', small(0x10000));
  const [fromA, fromB] = await Promise.all([takeMany(a, 4_000), takeMany(b, 4_000)]);
  const all = [...fromA, ...fromB];
  assert.is(new Set(all).size, all.length, 'no token handed out twice');
  const owners = await sql(url, 'SELECT instance, count(*)::int AS n FROM appkernel_token_reservations WHERE token = ANY($1::text[]) GROUP BY 1 ORDER BY 1', [all]);
  assert.equal(owners.rows, [{ instance: 'host-a:1', n: 4_000 }, { instance: 'host-b:2', n: 4_000 }], 'each token handed out is reserved to the pool that handed it out');
  await Promise.all([a.close(), b.close()]);
});

test('when most of the candidates are stored profiles\' tokens, then a reserved token is never one of them', async () => {
  const url = await databaseWithSchema();
  const stored = new Set<string>();
  for (let i = 0; i < 3_000; i += 2) stored.add(i.toString(16).padStart(6, '0'));
  await sql(url, `INSERT INTO appkernel_profiles (token, time, status, ip, method, url, duration, instance, profiler, bytes, body)
    SELECT t, $2, 200, '127.0.0.1', 'GET', 'http://x/stored', 1, 'other:1', false, 2, '\\x7b7d' FROM unnest($1::text[]) AS t`, [[...stored], T0]);
  const pool = new TokenPool(poolFor(url), () => 'host-a:1', small(3_000));
  const tokens = await takeMany(pool, 1_000);
  assert.ok(tokens.every((t) => !stored.has(t)), tokens.filter((t) => stored.has(t)).join(' '));
  await pool.close();
});

test('when two stores on one database write many profiles under generated tokens at once, then every one is stored, none overwritten or dropped', async () => {
  const url = await server.createDatabase();
  const stores = [await open(url, 'host-a:8001'), await open(url, 'host-b:8002')];
  const perStore = 3_000;
  const handedOut: string[] = [];
  await Promise.all(stores.map(async (store, s) => {
    for (let i = 0; i < perStore; i++) {
      const token = generateToken((t) => store.has(t), () => store.nextToken());
      handedOut.push(token);
      store.write(profile200({ token, time: T0 + i, url: `http://store-${s}/${i}` }));
      if (i % 50 === 49) {
        await store.flush();
        await yieldTurn();
      }
    }
    await store.flush();
  }));
  assert.is(new Set(handedOut).size, handedOut.length, 'no token handed out twice');
  assert.is(await count(url, 'appkernel_profiles'), 2 * perStore);
  for (const store of stores) assert.is(store.stats().dropped, 0);
});

test('when the stores close, then no reservation is left: the used ones and those never handed out are deleted', async () => {
  const url = await server.createDatabase();
  const a = await open(url, 'host-a:8001');
  const b = await open(url, 'host-b:8002');
  assert.ok(await count(url, 'appkernel_token_reservations') >= 2 * 1_000, 'reserved ahead at open');
  for (const store of [a, b]) {
    for (let i = 0; i < 50; i++) store.write(profile200({ token: store.nextToken() ?? 'ffffff', time: T0 + i }));
  }
  await Promise.all([a.close(), b.close()]);
  assert.is(await count(url, 'appkernel_profiles'), 100);
  assert.is(await count(url, 'appkernel_token_reservations'), 0);
});

test('when reservations are stored or an hour old, then the clean-up deletes them and keeps the others', async () => {
  const url = await databaseWithSchema();
  const pool = new TokenPool(poolFor(url), () => 'host-a:1');
  const [used, old, kept] = await takeMany(pool, 3);
  await storeProfile(url, used);
  await sql(url, `UPDATE appkernel_token_reservations SET reserved_at = now() - interval '61 minutes' WHERE token = $1`, [old]);
  await pool.cleanUp();
  const left = (await sql(url, 'SELECT token FROM appkernel_token_reservations WHERE token = ANY($1::text[])', [[used, old, kept]])).rows.map((r) => r.token);
  assert.equal(left, [kept]);
  await pool.close();
});

test('when the database is away, then the store hands out no reserved token, a random one is drawn and queued, and reserving resumes once it is back', async () => {
  const url = await server.createDatabase();
  const store = await open(url, 'host-a:8001');
  server.stopServer();
  try {
    while (store.nextToken() !== null) { /* drain the pool */ }
    const token = generateToken((t) => store.has(t), () => store.nextToken());
    assert.match(token, /^[0-9a-f]{6}$/);
    store.write(profile200({ token, time: T0 }));
    assert.is(store.stats().queued, 1);
  } finally {
    server.startServer();
  }
  assert.ok(await waitFor(() => {
    const next = store.nextToken();
    return next !== null;
  }, 15_000), 'reserved tokens again');
  await store.flush();
  assert.is(await count(url, 'appkernel_profiles'), 1);
  assert.is(store.stats().dropped, 0);
});

test('when the database holds the previous schema with profiles, then opening adds the reservations and never reserves a stored token', async () => {
  const url = await server.createDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await migrate(client, SCHEMA_VERSION - 1);
  await client.end();
  await storeProfile(url, 'abc123');
  assert.equal((await sql(url, "SELECT to_regclass('appkernel_token_reservations') AS t")).rows, [{ t: null }]);
  const store = await open(url, 'host-a:8001');
  assert.equal((await sql(url, 'SELECT version FROM appkernel_schema')).rows, [{ version: SCHEMA_VERSION }]);
  assert.is(await count(url, 'appkernel_token_reservations') >= 1_000, true);
  assert.is((await sql(url, "SELECT count(*)::int AS n FROM appkernel_token_reservations WHERE token = 'abc123'")).rows[0].n, 0);
  assert.equal((await store.search({ limit: 10 })).map((s) => s.token), ['abc123']);
  assert.ok(store.has('abc123'));
});

test.run();
