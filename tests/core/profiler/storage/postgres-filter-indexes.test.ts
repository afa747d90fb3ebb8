import pg from 'pg';
import { suite } from 'uvu';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';
import * as assert from 'uvu/assert';
import type { SearchQuery } from '../../../../core/profiler/profile.js';
import { migrate } from '../../../../core/profiler/storage/postgres-schema.js';
import {
  ipLookup,
  MAX_NAMED_IPS,
  namedIps,
  searchCondition,
} from '../../../../core/profiler/storage/postgres-search.js';
import { openPostgresStorage, type PostgresStorage } from '../../../../core/profiler/storage/postgres-storage.js';
import { startTempPostgres, sql } from '../../../helpers/temp-postgres.js';
import { nthToken, profile200 } from '../fixtures.js';

// How the IP, token prefix and URL filters find their profiles: the IPs named from the IP index,
// counts that read an index alone and stop at their bound, and a store of the schema before upgraded.
const server = await startTempPostgres();
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const LONG_IP = `${'f'.repeat(80)}192.168.1.3`;
const IPS = ['192.168.1.3', '192.168.1.30', '10.0.0.7', '127.0.0.1'];

const opened: PostgresStorage[] = [];
async function open(url: string): Promise<PostgresStorage> {
  const storage = await openPostgresStorage({ url, onWarning: () => {} });
  opened.push(storage);
  return storage;
}

/** `count` profiles, the i-th from IPS[i % 4], every fifth one of the profiler's own requests. */
async function fill(storage: PostgresStorage, count: number, ipOf = (i: number) => IPS[i % IPS.length]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const url =
      i % 5 === 0 ? `http://127.0.0.1:8000/_profiler/${nthToken(i)}` : `http://127.0.0.1:8000/orders/${i % 7}`;
    storage.writeBatch([storedEntry(profile200({ token: nthToken(i), time: T0 + i * 10, ip: ipOf(i), url }))]);
    if (i % 500 === 499) await storage.flush();
  }
  await storage.flush();
}

const truth = async (url: string, where: string, params: unknown[]): Promise<string[]> =>
  (
    await sql(url, `SELECT token FROM appkernel_profiles WHERE ${where} ORDER BY time DESC, token DESC`, params)
  ).rows.map((row) => row.token);

async function lookup(url: string, ip: string): Promise<{ ips: string[]; complete: boolean }> {
  const { text, params } = ipLookup(ip);
  const { ips, complete } = (await sql(url, text, params)).rows[0];
  return { ips: [...ips].sort(), complete };
}

const test = suite('PostgresStorage filter indexes');
test.after.each(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

test('when an IP part is searched, then the stored addresses containing it are named, and the search finds what a substring match finds', async () => {
  const url = await server.createDatabase();
  const storage = await open(url);
  await fill(storage, 200);
  assert.equal(await lookup(url, '192.168.1.3'), { ips: ['192.168.1.3', '192.168.1.30'], complete: true });
  assert.equal(await lookup(url, 'nowhere'), { ips: [], complete: true });
  const expected = await truth(url, 'ip LIKE $1 AND NOT profiler', ['%192.168.1.3%']);
  const query: SearchQuery = { limit: 500, ip: '192.168.1.3', hideProfiler: true };
  assert.equal(
    (await storage.search(query)).map((s) => s.token),
    expected,
  );
  assert.is(await storage.count(query, 10_000), expected.length);
  assert.is(await storage.count({ ...query, ip: 'nowhere' }, 10_000), 0);
  // The IP index leaves out the loopback addresses: a part matching one names it all the same.
  assert.equal(namedIps('127.0', await lookup(url, '127.0')), ['127.0.0.1']);
  assert.equal(
    (await storage.search({ limit: 500, ip: '7' })).map((s) => s.token),
    await truth(url, 'ip LIKE $1', ['%7%']),
  );
});

test('when a stored IP is too long for the IP index, then it is written all the same, and an IP part is matched as a substring again', async () => {
  const url = await server.createDatabase();
  const storage = await open(url);
  await fill(storage, 60, (i) => (i === 7 ? LONG_IP : IPS[i % IPS.length]));
  assert.is(storage.stats().profiles, 60);
  assert.is((await lookup(url, '192.168.1.3')).complete, false);
  const found = (await storage.search({ limit: 100, ip: '192.168.1.3' })).map((s) => s.token);
  assert.equal(found, await truth(url, 'ip LIKE $1', ['%192.168.1.3%']));
  assert.ok(found.includes(nthToken(7)), 'the long one among them');
});

test('when more distinct IPs are stored than a search names, then an IP part is matched as a substring', async () => {
  const url = await server.createDatabase();
  const storage = await open(url);
  await fill(storage, MAX_NAMED_IPS + 1, (i) => `10.${Math.floor(i / 256)}.${i % 256}.1`);
  assert.is((await lookup(url, '10.')).complete, false);
  assert.is(
    await storage.count({ limit: 1, ip: '10.3.' }, 10_000),
    (await truth(url, 'ip LIKE $1', ['%10.3.%'])).length,
  );
});

/** The plan of a page's count, bounded as match-count.ts bounds it (here at `atMost`), as the store asks it. */
async function countPlan(url: string, query: SearchQuery, atMost: number): Promise<string> {
  const named = query.ip === undefined ? {} : { ips: namedIps(query.ip, await lookup(url, query.ip)) };
  const condition = searchCondition(query, 1, named);
  const rows = (
    await sql(
      url,
      `EXPLAIN (ANALYZE, COSTS OFF) SELECT count(*)::int AS n FROM (SELECT 1 FROM appkernel_profiles ${condition.where} LIMIT ${atMost + 1}) AS matches`,
      condition.params,
    )
  ).rows;
  return rows.map((row) => Object.values(row)[0]).join('\n');
}

test("when a page counts an IP's or a token prefix's matches, the profiler's own left out, then an index alone is read, up to the bound", async () => {
  const url = await server.createDatabase();
  await open(url);
  // Rows alone, as another instance may write them, as many as the planner weighs indexes for: one
  // IP in 50 and a token prefix in 256, where walking the table to count to the bound reads thousands
  // of rows. Committed synchronously, so that VACUUM marks them all visible (the index alone answers).
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SET synchronous_commit = on');
  await client.query(
    `INSERT INTO appkernel_profiles (token, time, status, ip, method, url_hash, duration, instance, profiler, bytes, body)
    SELECT lpad(to_hex((n * 2654435761) % 16777216), 6, '0'), $1::float8 + n, 200,
      CASE WHEN n % 50 = 0 THEN '10.0.0.7' ELSE '127.0.0.1' END, 'GET', md5('http://x/')::uuid, 1, 'other:1', n % 5 = 1, 10, '\\x7b7d'
    FROM generate_series(1, 50000) AS n`,
    [T0],
  );
  await client.query('VACUUM ANALYZE appkernel_profiles');
  await client.end();
  for (const query of [
    { limit: 20, ip: '10.0.0.7', hideProfiler: true },
    { limit: 20, token: 'ab', hideProfiler: true },
  ]) {
    const plan = await countPlan(url, query, 100);
    assert.match(plan, /Index Only Scan using appkernel_profiles_(ip|pkey)/, `${JSON.stringify(query)}:\n${plan}`);
    assert.match(plan, /Index Only Scan[^\n]*actual time=[^)]* rows=101 loops/, `stops at the bound: ${plan}`);
  }
});

test('when a rare URL is searched, then its newest profiles are the URL index’s last entries', async () => {
  const url = await server.createDatabase();
  const storage = await open(url);
  for (let i = 0; i < 4_000; i++) {
    const page = i % 200 === 0 ? 'http://x/rare' : `http://x/common/${i % 3}`;
    storage.writeBatch([storedEntry(profile200({ token: nthToken(i), time: T0 + i, url: page }))]);
    if (i % 500 === 499) await storage.flush();
  }
  await storage.flush();
  await sql(url, 'VACUUM ANALYZE appkernel_profiles');
  const hash = (await sql(url, "SELECT md5('http://x/rare')::uuid AS hash")).rows[0].hash;
  const condition = searchCondition({ limit: 3, url: '/rare', hideProfiler: true }, 1, { urlHashes: [hash] });
  const plan = (
    await sql(
      url,
      `EXPLAIN (ANALYZE, COSTS OFF) SELECT token FROM appkernel_profiles ${condition.where} ORDER BY time DESC, token DESC LIMIT 3`,
      condition.params,
    )
  ).rows
    .map((row) => Object.values(row)[0])
    .join('\n');
  assert.match(
    plan,
    /Index (Only )?Scan Backward using appkernel_profiles_url[^\n]*actual time=[^)]* rows=3 loops/,
    plan,
  );
  assert.not.match(plan, /Sort/, plan);
  assert.equal(
    (await storage.search({ limit: 3, url: '/rare' })).map((s) => s.token),
    [3800, 3600, 3400].map(nthToken),
  );
});

test('when a store of the schema before is opened, then its indexes are upgraded and its profiles found by IP and token', async () => {
  const url = await server.createDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await migrate(client, 9);
  await client.query(`INSERT INTO appkernel_urls (hash, url) VALUES (md5('http://x/old')::uuid, 'http://x/old')`);
  for (const [token, ip] of [
    ['01d001', '192.168.1.3'],
    ['01d002', LONG_IP],
    ['01d003', '127.0.0.1'],
  ]) {
    await client.query(
      `INSERT INTO appkernel_profiles (token, time, status, ip, method, url_hash, duration, instance, profiler, bytes, body)
      VALUES ($1, $2, 200, $3, 'GET', md5('http://x/old')::uuid, 1, 'old:1', false, 10, '\\x7b7d')`,
      [token, T0, ip],
    );
  }
  await client.end();
  const storage = await open(url);
  const indexes = (await sql(url, "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'appkernel_profiles'"))
    .rows;
  const definition = (name: string) => indexes.find((row) => row.indexname === name)?.indexdef ?? '(none)';
  assert.match(definition('appkernel_profiles_pkey'), /UNIQUE INDEX .* \(token\) INCLUDE \(profiler\)/);
  assert.match(
    definition('appkernel_profiles_ip'),
    /\(ip, profiler\) WHERE \(\(length\(ip\) < 64\) AND \(ip <> '127\.0\.0\.1'/,
  );
  assert.match(definition('appkernel_profiles_url'), /\(url_hash, "time", token\) INCLUDE \(profiler\)/);
  assert.equal((await storage.search({ limit: 10, ip: '192.168.1.3' })).map((s) => s.token).sort(), [
    '01d001',
    '01d002',
  ]);
  assert.is(await storage.count({ limit: 1, token: '01d', hideProfiler: true }, 10_000), 3);
  // The token key still refuses a token taken: the writer tells it by the key's name.
  storage.writeBatch([storedEntry(profile200({ token: '01d001', time: T0 + 5, url: 'http://x/again' }))]);
  await storage.flush();
  assert.is(await storage.count({ limit: 1, token: '01d' }, 10_000), 3);
});

test.run();
