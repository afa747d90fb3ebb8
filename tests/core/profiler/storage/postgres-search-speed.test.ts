import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  openPostgresStorage,
  type PostgresStorage,
  type PostgresStorageOptions,
} from '../../../../core/profiler/storage/postgres-storage.js';
import { migrate } from '../../../../core/profiler/storage/postgres-schema.js';
import { MAX_NAMED_URLS, searchCondition, urlLookup } from '../../../../core/profiler/storage/postgres-search.js';
import type { SearchQuery } from '../../../../core/profiler/profile.js';
import { waitFor } from '../../../helpers/poll.js';
import { startTempPostgres, sql } from '../../../helpers/temp-postgres.js';
import { nthToken, profile200, profile404 } from '../fixtures.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';

// What keeps searches and counts independent of the table's size: the counts table, the planner's statistics.
const server = await startTempPostgres();
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

const opened: PostgresStorage[] = [];
async function open(url: string, options: Partial<PostgresStorageOptions> = {}): Promise<PostgresStorage> {
  const storage = await openPostgresStorage({ url, onWarning: () => {}, ...options });
  opened.push(storage);
  return storage;
}

/** The counts table's rows next to what counting the profiles themselves gives, both in one order. */
async function countsAndTruth(url: string): Promise<[unknown[], unknown[]]> {
  const counts = await sql(
    url,
    `SELECT profiler, status, method, profiles::int, bytes::int FROM appkernel_profile_counts
    WHERE profiles > 0 ORDER BY 1, 2, 3`,
  );
  const truth = await sql(
    url,
    `SELECT profiler, status, upper(method) AS method, count(*)::int AS profiles, sum(bytes)::int AS bytes
    FROM appkernel_profiles GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  return [counts.rows, truth.rows];
}

function mixed(i: number) {
  const options = { token: nthToken(i), time: T0 + i * 10 };
  if (i % 3 === 0) return profile404(options);
  if (i % 3 === 1) return profile200({ ...options, url: `http://127.0.0.1:8000/_profiler/${nthToken(i)}` });
  return profile200({ ...options, method: i % 2 ? 'post' : 'GET' });
}

// ---

const counts = suite('PostgresStorage counts table');
counts.after.each(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

counts('when two instances write and prune at once, then the counts table matches the profiles exactly', async () => {
  const url = await server.createDatabase();
  const [a, b] = [
    await open(url, { maxProfiles: 150, instance: 'a:1' }),
    await open(url, { maxProfiles: 150, instance: 'b:2' }),
  ];
  await Promise.all(
    [a, b].map(async (storage, w) => {
      for (let i = 0; i < 200; i++) {
        storage.writeBatch([storedEntry(mixed(w * 200 + i))]);
        if (i % 25 === 24) await storage.flush();
      }
      await storage.flush();
    }),
  );
  await a.prune({ keep: 120 });
  const [rows, truth] = await countsAndTruth(url);
  assert.equal(rows, truth);
  const dangling = await sql(
    url,
    'SELECT count(*)::int AS n FROM appkernel_profiles p WHERE NOT EXISTS (SELECT FROM appkernel_urls u WHERE u.hash = p.url_hash)',
  );
  assert.is(dangling.rows[0].n, 0, "every profile's URL is stored");
  assert.is(await a.count({ limit: 1 }), 120);
  assert.is(
    await b.count({ limit: 1, status: '4xx', hideProfiler: true }),
    (await sql(url, 'SELECT count(*)::int AS n FROM appkernel_profiles WHERE status / 100 = 4 AND NOT profiler'))
      .rows[0].n,
  );
  await b.clear();
  assert.equal(await countsAndTruth(url), [[], []]);
  assert.is(await a.count({ limit: 1, method: 'post' }), 0);
});

counts(
  'when counting by status, method and the profiler flag, then the count comes from the counts table',
  async () => {
    const url = await server.createDatabase();
    const storage = await open(url);
    for (let i = 0; i < 30; i++) storage.writeBatch([storedEntry(mixed(i))]);
    await storage.flush();
    // Only the counts table is changed: a count that reads it shows the change.
    await sql(url, 'UPDATE appkernel_profile_counts SET profiles = profiles + 1000 WHERE status = 404');
    assert.is(await storage.count({ limit: 1, status: '404' }), 1010);
    assert.is(await storage.count({ limit: 1, status: '4xx', method: 'get', hideProfiler: true }), 1010);
    assert.is(
      await storage.count({ limit: 1, status: '404', url: '/' }),
      10,
      'a URL filter counts the profiles themselves',
    );
  },
);

counts('when a database holds profiles of the schema before the counts table, then upgrading counts them', async () => {
  const url = await server.createDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await migrate(client, 2);
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  await client.query(
    'CREATE INDEX IF NOT EXISTS appkernel_profiles_ip_trgm ON appkernel_profiles USING gin (ip gin_trgm_ops)',
  );
  for (const [token, status, method] of [
    ['0ld001', 200, 'get'],
    ['0ld002', 404, 'GET'],
    ['0ld003', 404, 'GET'],
  ] as const) {
    await client.query(
      `INSERT INTO appkernel_profiles (token, time, status, ip, method, url, duration, instance, profiler, bytes, body)
      VALUES ($1, $2, $3, '127.0.0.1', $4, 'http://x/old', 1, 'old:1', false, 10, '\\x7b7d')`,
      [token, T0, status, method],
    );
  }
  await client.end();
  const storage = await open(url);
  const [rows, truth] = await countsAndTruth(url);
  assert.equal(rows, truth);
  assert.is(await storage.count({ limit: 1, status: '404', method: 'get' }), 2);
  assert.is(storage.stats().profiles, 3);
  const indexes = (await sql(url, "SELECT indexname FROM pg_indexes WHERE tablename = 'appkernel_profiles'")).rows.map(
    (row) => row.indexname,
  );
  assert.ok(indexes.includes('appkernel_profiles_status_class'), indexes.join(', '));
  assert.not.ok(
    indexes.includes('appkernel_profiles_ip_trgm'),
    'the IP trigram index, which cost writes more than it served, is dropped',
  );
});

counts.run();

// ---

const statistics = suite('PostgresStorage planner statistics');
statistics.after.each(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** `count` mixed profiles, flushed 500 at a time as a busy server's writer would be. */
async function writeMixed(storage: PostgresStorage, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    storage.writeBatch([storedEntry(mixed(i))]);
    if (i % 500 === 499) await storage.flush();
  }
  await storage.flush();
}

/** The hashes a store names for the query's URL part, as PostgresStorage looks them up. */
async function urlHashes(url: string, query: SearchQuery): Promise<string[] | undefined> {
  if (!query.url) return undefined;
  const lookup = urlLookup(query.url);
  const rows = (await sql(url, lookup.text, lookup.params)).rows;
  return rows.length > MAX_NAMED_URLS ? undefined : rows.map((row) => row.hash);
}

const reltuples = async (url: string): Promise<number> =>
  (await sql(url, "SELECT reltuples::int AS n FROM pg_class WHERE oid = 'appkernel_profiles'::regclass")).rows[0].n;

statistics(
  "when a store has written more than a thousand profiles, then it gathers the table's statistics itself",
  async () => {
    const url = await server.createDatabase();
    const storage = await open(url);
    await writeMixed(storage, 1_500);
    assert.ok(await waitFor(async () => (await reltuples(url)) >= 1_000, 10_000), 'ANALYZE ran');
    const plan = (
      await sql(
        url,
        `EXPLAIN SELECT token FROM appkernel_profiles WHERE status / 100 = 4 ORDER BY time DESC, token DESC LIMIT 20`,
      )
    ).rows
      .map((row) => Object.values(row)[0])
      .join('\n');
    assert.match(plan, /Index Scan (Backward )?using appkernel_profiles_(time|status_class)/);
  },
);

statistics(
  'when the table grew less than fourfold since its statistics, then the store leaves them, and gathers them again past that',
  async () => {
    const url = await server.createDatabase();
    const analyses = async () =>
      Number(
        (await sql(url, "SELECT analyze_count AS n FROM pg_stat_user_tables WHERE relname = 'appkernel_profiles'"))
          .rows[0].n,
      );
    /** Profiles `from` to `to` by a store of their own, closed after: its ANALYZE, if any, is over and every count is in the statistics. */
    const write = async (from: number, to: number) => {
      const storage = await open(url);
      for (let i = from; i < to; i++) {
        storage.writeBatch([storedEntry(mixed(i))]);
        if (i % 500 === 499) await storage.flush();
      }
      await storage.close();
    };
    await write(0, 1_500);
    // Opening the empty table gathered them once, writing 1,500 profiles once more.
    assert.ok(await waitFor(async () => (await analyses()) === 2, 10_000), `${await analyses()} ANALYZE`);
    await write(1_500, 5_000);
    assert.is(await analyses(), 2, '3,500 more on 1,500: not yet fourfold');
    await write(5_000, 6_000);
    assert.is(await analyses(), 2, '4,500 more on 1,500, told at open: not yet fourfold');
    await open(url);
    assert.ok(
      await waitFor(async () => (await analyses()) === 3, 10_000),
      `7,000 on 1,500, told at open: ${await analyses()} ANALYZE`,
    );
  },
);

statistics('when a store opens a table changed by others since its statistics, then it gathers them', async () => {
  const url = await server.createDatabase();
  await open(url);
  await sql(
    url,
    `INSERT INTO appkernel_profiles (token, time, status, ip, method, url_hash, duration, instance, profiler, bytes, body)
    SELECT 'x' || n, $1::float8 + n, 200, '127.0.0.1', 'GET', md5('http://x/' || n)::uuid, 1, 'other:1', false, 10, '\\x7b7d' FROM generate_series(1, 3000) AS n`,
    [T0],
  );
  await waitFor(
    async () =>
      Number(
        (
          await sql(
            url,
            "SELECT n_mod_since_analyze AS n FROM pg_stat_user_tables WHERE relname = 'appkernel_profiles'",
          )
        ).rows[0]?.n,
      ) >= 3_000,
    5_000,
  );
  assert.ok((await reltuples(url)) < 1_000);
  await open(url);
  assert.ok(await waitFor(async () => (await reltuples(url)) >= 3_000, 10_000), 'ANALYZE ran at open');
});

statistics(
  'when the table holds thousands of profiles, then every search walks one of a few indexes newest first, none reads the whole table',
  async () => {
    const url = await server.createDatabase();
    const storage = await open(url);
    await writeMixed(storage, 6_000);
    await sql(url, 'ANALYZE appkernel_profiles');
    const queries: SearchQuery[] = [
      { limit: 20 },
      { limit: 20, status: '404' },
      { limit: 20, status: '200' },
      { limit: 20, status: '500' },
      { limit: 20, status: '4xx' },
      { limit: 20, status: '404', method: 'GET' },
      { limit: 20, method: 'POST' },
      { limit: 20, method: 'DELETE' },
      { limit: 20, hideProfiler: true },
      { limit: 20, status: '2xx' },
      { limit: 20, method: 'get' },
      { limit: 20, status: '200', method: 'GET' },
      { limit: 20, url: '/_profiler/' },
      { limit: 20, url: '/robots.txt' },
      { limit: 20, url: '/nowhere' },
      { limit: 20, token: 'ab' },
      { limit: 20, since: T0 + 10_000, until: T0 + 20_000 },
    ];
    for (const query of queries) {
      const condition = searchCondition(query, 1, { urlHashes: await urlHashes(url, query) });
      const plan = (
        await sql(
          url,
          `EXPLAIN SELECT token FROM appkernel_profiles ${condition.where} ORDER BY time DESC, token DESC LIMIT 20`,
          condition.params,
        )
      ).rows
        .map((row) => Object.values(row)[0])
        .join('\n');
      // A URL part is looked up among the distinct URLs first, which a few rows may be read through.
      assert.not.match(plan, /Seq Scan on appkernel_profiles/, `${JSON.stringify(query)}:\n${plan}`);
      assert.match(plan, /Index|One-Time Filter: false/, `${JSON.stringify(query)}:\n${plan}`);
      // A third of the profiles: the newest 20 of them are among the newest few dozen.
      if (query.url === '/robots.txt') assert.match(plan, /Index Scan (Backward )?using appkernel_profiles_time/, plan);
      // The class and method indexes hold the uncommon kinds alone: a rare one is found there.
      if (query.status === '500' || query.method === 'DELETE')
        assert.match(plan, /using appkernel_profiles_(status_class|method)/, plan);
    }
    assert.is(
      await urlHashes(url, { limit: 20, url: '/_profiler/' }),
      undefined,
      'more distinct URLs match than are named',
    );
    assert.equal(
      (await storage.search({ limit: 5, url: '/_profiler/' })).map((s) => s.token),
      [5998, 5995, 5992, 5989, 5986].map(nthToken),
    );
    assert.is(await storage.count({ limit: 1, url: '/_profiler/' }), 2_000);
    assert.equal(
      (await storage.search({ limit: 2, url: '/robots.txt' })).map((s) => s.token),
      [5997, 5994].map(nthToken),
    );
    const indexes = (
      await sql(url, "SELECT indexname FROM pg_indexes WHERE tablename = 'appkernel_profiles' ORDER BY 1")
    ).rows.map((row) => row.indexname);
    assert.equal(
      indexes,
      [
        'appkernel_profiles_ip',
        'appkernel_profiles_long_ip',
        'appkernel_profiles_method',
        'appkernel_profiles_pkey',
        'appkernel_profiles_seq',
        'appkernel_profiles_status_class',
        'appkernel_profiles_time',
        'appkernel_profiles_url',
      ],
      'each index costs every insert: no exact status nor profiler flag index of its own, no trigram index on every row',
    );
  },
);

statistics(
  'when the store searches for a rare URL among a common one, then the search is planned for that URL and walks the URL index',
  async () => {
    const url = await server.createDatabase();
    const storage = await open(url);
    for (let i = 0; i < 2_000; i++)
      storage.writeBatch([
        storedEntry(
          profile200({ token: nthToken(i), time: T0 + i, url: i % 400 === 0 ? 'http://x/rare' : 'http://x/common' }),
        ),
      ]);
    await storage.flush();
    await sql(url, 'ANALYZE appkernel_profiles');
    const urlScans = async () =>
      Number(
        (await sql(url, "SELECT idx_scan AS n FROM pg_stat_user_indexes WHERE indexrelname = 'appkernel_profiles_url'"))
          .rows[0].n,
      );
    const before = await urlScans();
    // Planned once for any URL (as a writer's connection plans its insert), two URLs of two would walk the time index.
    assert.equal(
      (await storage.search({ limit: 3, url: '/rare' })).map((s) => s.token),
      [1600, 1200, 800].map(nthToken),
    );
    assert.ok(await waitFor(async () => (await urlScans()) > before, 15_000), 'the URL index was walked');
  },
);

statistics(
  'when there are thousands of distinct URLs, then a URL part finds them by the trigram index, and their profiles by the URL index',
  async () => {
    const url = await server.createDatabase();
    const storage = await open(url);
    await writeMixed(storage, 1_000);
    await sql(
      url,
      `INSERT INTO appkernel_urls (hash, url) SELECT md5('http://x/orders/' || n)::uuid, 'http://x/orders/' || n FROM generate_series(1, 20000) AS n`,
    );
    await sql(url, 'ANALYZE appkernel_profiles');
    await sql(url, 'ANALYZE appkernel_urls');
    const condition = searchCondition({ limit: 20, url: '/orders/1234' });
    const plan = (
      await sql(
        url,
        `EXPLAIN SELECT token FROM appkernel_profiles ${condition.where} ORDER BY time DESC, token DESC LIMIT 20`,
        condition.params,
      )
    ).rows
      .map((row) => Object.values(row)[0])
      .join('\n');
    assert.not.match(plan, /Seq Scan/, plan);
    assert.match(plan, /appkernel_urls_url_trgm/, plan);
    assert.match(plan, /appkernel_profiles_url\b/, plan);
  },
);

statistics.run();
