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
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';

// One server for the file (stopped and removed when the process exits); each test gets a database of its own.
const server = await startTempPostgres();
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

const opened: PostgresStorage[] = [];
const pools: pg.Pool[] = [];
/** The store; `dropped` counts what it reports dropped. */
async function open(url: string, instance: string): Promise<PostgresStorage & { dropped: number }> {
  const drops = { dropped: 0 };
  const storage = await openPostgresStorage({
    url,
    instance,
    onWarning: () => {},
    onWritten: (report) => void (drops.dropped += report.dropped.length),
  });
  opened.push(storage);
  return Object.defineProperty(storage, 'dropped', { get: () => drops.dropped }) as PostgresStorage & {
    dropped: number;
  };
}

function poolFor(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  return pool;
}

const count = async (url: string, table: string): Promise<number> =>
  (await sql(url, `SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));
/** prefixes of the first `space` ranges (000, 001, …) only, so that claims collide all the time */
const small =
  (space: number) =>
  (n: number): string[] =>
    Array.from({ length: n }, () =>
      Math.floor(Math.random() * space)
        .toString(16)
        .padStart(3, '0'),
    );
const prefixesOf = (tokens: string[]): string[] => [...new Set(tokens.map((t) => t.slice(0, 3)))];

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

/** A profile as another instance stores it, in the database's schema (its URL in the row before schema 8). */
async function storeProfile(url: string, token: string): Promise<void> {
  const inRow =
    (
      await sql(
        url,
        "SELECT FROM information_schema.columns WHERE table_name = 'appkernel_profiles' AND column_name = 'url'",
      )
    ).rowCount === 1;
  await sql(
    url,
    `INSERT INTO appkernel_profiles (token, time, status, ip, method, ${inRow ? 'url' : 'url_hash'}, duration, instance, profiler, bytes, body)
    VALUES ($1, $2, 200, '127.0.0.1', 'GET', ${inRow ? "'http://x/stored'" : "md5('http://x/stored')::uuid"}, 1, 'other:1', false, 2, '\\x7b7d')`,
    [token, T0],
  );
}

const test = suite('PostgreSQL store: tokens reserved across instances');
test.after.each(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

test('when two pools on one database reserve from the same few ranges at once, then they never hand out the same token', async () => {
  const url = await databaseWithSchema();
  const a = new TokenPool(poolFor(url), () => 'host-a:1', { draw: small(6) });
  const b = new TokenPool(poolFor(url), () => 'host-b:2', { draw: small(6) });
  const [fromA, fromB] = await Promise.all([takeMany(a, 6_000), takeMany(b, 6_000)]);
  const all = [...fromA, ...fromB];
  assert.is(new Set(all).size, all.length, 'no token handed out twice');
  const owner = async (tokens: string[]) =>
    (
      await sql(url, 'SELECT DISTINCT instance FROM appkernel_token_ranges WHERE prefix = ANY($1::text[])', [
        prefixesOf(tokens),
      ])
    ).rows;
  assert.equal(
    await owner(fromA),
    [{ instance: 'host-a:1' }],
    'each token handed out is in a range claimed by the pool that handed it out',
  );
  assert.equal(await owner(fromB), [{ instance: 'host-b:2' }]);
  await Promise.all([a.close(), b.close()]);
});

test("when most of a range's tokens are stored profiles' tokens, then a reserved token is never one of them", async () => {
  const url = await databaseWithSchema();
  const stored = new Set<string>();
  for (let i = 0; i < 4_096; i++) if (i % 4 !== 3) stored.add(i.toString(16).padStart(6, '0'));
  await sql(
    url,
    `INSERT INTO appkernel_profiles (token, time, status, ip, method, url_hash, duration, instance, profiler, bytes, body)
    SELECT t, $2, 200, '127.0.0.1', 'GET', md5('http://x/stored')::uuid, 1, 'other:1', false, 2, '\\x7b7d' FROM unnest($1::text[]) AS t`,
    [[...stored], T0],
  );
  const pool = new TokenPool(poolFor(url), () => 'host-a:1', { draw: small(1) });
  const tokens = await takeMany(pool, 1_024);
  assert.ok(
    tokens.every((t) => !stored.has(t)),
    tokens.filter((t) => stored.has(t)).join(' '),
  );
  assert.is(new Set(tokens).size, 1_024, 'every free token of the range, once each');
  assert.is(pool.take(), null, 'the range is used up, and no other may be claimed');
  await pool.close();
});

test('when two stores on one database write many profiles under generated tokens at once, then every one is stored, none overwritten or dropped', async () => {
  const url = await server.createDatabase();
  const stores = [await open(url, 'host-a:8001'), await open(url, 'host-b:8002')];
  const perStore = 3_000;
  const handedOut: string[] = [];
  await Promise.all(
    stores.map(async (store, s) => {
      for (let i = 0; i < perStore; i++) {
        const token = generateToken(
          (t) => store.has(t),
          () => store.nextToken(),
        );
        handedOut.push(token);
        store.writeBatch([storedEntry(profile200({ token, time: T0 + i, url: `http://store-${s}/${i}` }))]);
        if (i % 50 === 49) {
          await store.flush();
          await yieldTurn();
        }
      }
      await store.flush();
    }),
  );
  assert.is(new Set(handedOut).size, handedOut.length, 'no token handed out twice');
  assert.is(await count(url, 'appkernel_profiles'), 2 * perStore);
  for (const store of stores) assert.is(store.dropped, 0);
});

test('when the stores close, then no reservation is left: the ranges used and those never handed out are given back', async () => {
  const url = await server.createDatabase();
  const a = await open(url, 'host-a:8001');
  const b = await open(url, 'host-b:8002');
  assert.ok((await count(url, 'appkernel_token_ranges')) >= 2, 'reserved ahead at open');
  for (const store of [a, b]) {
    for (let i = 0; i < 50; i++)
      store.writeBatch([storedEntry(profile200({ token: store.nextToken() ?? 'ffffff', time: T0 + i }))]);
  }
  await Promise.all([a.close(), b.close()]);
  assert.is(await count(url, 'appkernel_profiles'), 100);
  assert.is(await count(url, 'appkernel_token_ranges'), 0);
});

test("when a range is used up, then its owner gives it back after a while; another instance's hour-old claim is deleted; the others are kept", async () => {
  const url = await databaseWithSchema();
  await sql(
    url,
    `INSERT INTO appkernel_token_ranges (prefix, claimant, instance, reserved_at) VALUES ('ffe', 'gone', 'host-x:1', now() - interval '61 minutes'),
    ('fff', 'other', 'host-y:1', now() - interval '59 minutes')`,
  );
  const pool = new TokenPool(poolFor(url), () => 'host-a:1', { draw: small(2), releaseAfterMs: 2_000 });
  const tokens = await takeMany(pool, 4_096 + 10);
  const [first, second] = prefixesOf(tokens);
  await pool.cleanUp();
  const prefixes = async () =>
    (await sql(url, 'SELECT prefix FROM appkernel_token_ranges ORDER BY 1')).rows.map((r) => r.prefix);
  assert.equal(
    await prefixes(),
    [first, second, 'fff'].sort(),
    'the used-up range is kept a while, the hour-old claim deleted',
  );
  assert.ok(
    await waitFor(async () => {
      await pool.cleanUp();
      return (await prefixes()).join() === [second, 'fff'].sort().join();
    }, 10_000),
    'the used-up range given back',
  );
  await pool.close();
  assert.equal(await prefixes(), ['fff'], "closing gives back the range in use, never another instance's");
});

test('when the database is away, then the store hands out no reserved token, a random one is drawn and queued, and reserving resumes once it is back', async () => {
  const url = await server.createDatabase();
  const store = await open(url, 'host-a:8001');
  server.stopServer();
  try {
    while (store.nextToken() !== null) {
      /* drain the pool */
    }
    const token = generateToken(
      (t) => store.has(t),
      () => store.nextToken(),
    );
    assert.match(token, /^[0-9a-f]{6}$/);
    store.writeBatch([storedEntry(profile200({ token, time: T0 }))]);
    assert.is(store.stats().queued, 1);
  } finally {
    server.startServer();
  }
  assert.ok(
    await waitFor(() => {
      const next = store.nextToken();
      return next !== null;
    }, 15_000),
    'reserved tokens again',
  );
  await store.flush();
  assert.is(await count(url, 'appkernel_profiles'), 1);
  assert.is(store.dropped, 0);
});

test('when the database holds schema 3 with profiles, then opening adds token reservations and never reserves a stored token', async () => {
  const url = await server.createDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await migrate(client, 3);
  await client.end();
  await storeProfile(url, 'abc123');
  assert.equal((await sql(url, "SELECT to_regclass('appkernel_token_ranges') AS t")).rows, [{ t: null }]);
  const store = await open(url, 'host-a:8001');
  assert.equal((await sql(url, 'SELECT version FROM appkernel_schema')).rows, [{ version: SCHEMA_VERSION }]);
  assert.is((await count(url, 'appkernel_token_ranges')) >= 1, true);
  const handedOut = new Set<string>();
  for (let token = store.nextToken(); token !== null; token = store.nextToken()) handedOut.add(token);
  assert.ok(handedOut.size >= 2_000, `${handedOut.size} reserved`);
  assert.not.ok(handedOut.has('abc123'));
  assert.equal(
    (await store.search({ limit: 10 })).map((s) => s.token),
    ['abc123'],
  );
  assert.ok(store.has('abc123'));
});

test('when the database holds schema 4, with a reservation per token, then opening replaces them by ranges', async () => {
  const url = await server.createDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await migrate(client, 4);
  await client.query(`INSERT INTO appkernel_token_reservations (token, instance) VALUES ('abc124', 'old:1')`);
  await client.end();
  await open(url, 'host-a:8001');
  assert.equal((await sql(url, "SELECT to_regclass('appkernel_token_reservations') AS t")).rows, [{ t: null }]);
  assert.ok((await count(url, 'appkernel_token_ranges')) >= 1);
});

test.run();
