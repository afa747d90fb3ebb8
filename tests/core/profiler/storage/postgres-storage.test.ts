import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AppError } from '../../../../core/errors.js';
import {
  openPostgresStorage,
  type PostgresStorage,
  type PostgresStorageOptions,
} from '../../../../core/profiler/storage/postgres-storage.js';
import { migrate, SCHEMA_VERSION } from '../../../../core/profiler/storage/postgres-schema.js';
import { openStorage } from '../../../../core/profiler/storage/open-storage.js';
import { FileStorage } from '../../../../core/profiler/storage/file-storage.js';
import { waitFor, settledYet } from '../../../helpers/poll.js';
import { PASSWORD, startTempPostgres, sql } from '../../../helpers/temp-postgres.js';
import { summarize } from '../../../../core/profiler/storage/index-line.js';
import { toStoredForm } from '../../../../core/profiler/storage/stored-form.js';
import type { Profile, SearchQuery } from '../../../../core/profiler/profile.js';
import { nthToken, profile200, profile404 } from '../fixtures.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';
import { openProfileIntake, type ProfileIntake } from '../../../../core/profiler/handoff/profile-intake.js';

// One server for the file (stopped and removed when the process exits); each test gets a database of its own.
const server = await startTempPostgres();
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

interface Opened {
  storage: PostgresStorage;
  /** the store as a server writes it: admission, drop counts, announced profiles */
  intake: ProfileIntake;
  warnings: string[];
}

const opened: PostgresStorage[] = [];
/** The store, behind a server's intake, which hears what it writes and drops. */
async function open(
  url: string,
  options: Partial<PostgresStorageOptions> & { maxQueue?: number } = {},
): Promise<Opened> {
  const warnings: string[] = [];
  const intake = await openProfileIntake(url, { warn: (m) => warnings.push(m), ...options });
  const storage = intake.store as PostgresStorage;
  opened.push(storage);
  return { storage, intake, warnings };
}

async function openError(url: string): Promise<AppError> {
  try {
    await openPostgresStorage({ url, onWarning: () => {} });
  } catch (error) {
    assert.instance(error, AppError);
    return error as AppError;
  }
  throw new Error(`opening ${url} succeeded`);
}

const withUrl = (url: string, change: (u: URL) => void): string => {
  const u = new URL(url);
  change(u);
  return u.toString();
};

// ---

const writers = suite('PostgresStorage with several instances on one database');
writers.after.each(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

writers(
  "when two instances write, then each lists and reads the other's profiles, with the instance that served each",
  async () => {
    const url = await server.createDatabase();
    const a = await open(url, { instance: 'host-a:8001' });
    const b = await open(url, { instance: 'host-b:8002' });
    a.storage.writeBatch([storedEntry(profile200({ token: 'aaaaa1', time: T0 }))]);
    b.storage.writeBatch([storedEntry(profile404({ token: 'bbbbb1', time: T0 + 1000 }))]);
    await Promise.all([a.storage.flush(), b.storage.flush()]);
    for (const store of [a.storage, b.storage]) {
      assert.equal(
        (await store.search({ limit: 10 })).map((s) => s.token),
        ['bbbbb1', 'aaaaa1'],
      );
      assert.is((await store.read('aaaaa1'))?.token, 'aaaaa1');
      assert.is((await store.read('bbbbb1'))?.status, 404);
    }
    const rows = await sql(url, 'SELECT token, instance FROM appkernel_profiles ORDER BY token');
    assert.equal(rows.rows, [
      { token: 'aaaaa1', instance: 'host-a:8001' },
      { token: 'bbbbb1', instance: 'host-b:8002' },
    ]);
    assert.equal(
      (await a.storage.search({ limit: 10 })).map((s) => s.instance),
      ['host-b:8002', 'host-a:8001'],
    );
    assert.is((await a.storage.read('bbbbb1'))?.instance, 'host-b:8002');
    b.storage.writeBatch([storedEntry(profile200({ token: 'bbbbb2', time: T0 + 2000 }))]);
    assert.is((await b.storage.read('bbbbb2'))?.instance, 'host-b:8002', 'queued');
    assert.is((await b.storage.search({ limit: 1 }))[0].instance, 'host-b:8002', 'queued');
  },
);

writers(
  'when another instance took a token, then has() learns it, and a profile written under it anyway is dropped and counted, never overwriting',
  async () => {
    const url = await server.createDatabase();
    const a = await open(url, { instance: 'host-a:8001' });
    const b = await open(url, { instance: 'host-b:8002' });
    a.storage.writeBatch([storedEntry(profile200({ token: 'c0111d', time: T0, url: 'http://a/first' }))]);
    await a.storage.flush();
    assert.ok(await waitFor(() => b.storage.has('c0111d'), 10_000), "b learns a's token");
    b.storage.writeBatch([storedEntry(profile200({ token: 'c0111d', time: T0 + 5, url: 'http://b/second' }))]);
    await b.storage.flush();
    assert.is((await b.storage.read('c0111d'))?.url, 'http://a/first');
    assert.is(b.intake.stats().dropped, 1);
    assert.match(b.warnings.join('\n'), /token "c0111d" was already taken by another instance's profile/);
  },
);

writers('when the retention bound is reached, then it holds across all instances together', async () => {
  const url = await server.createDatabase();
  const a = await open(url, { maxProfiles: 5, instance: 'host-a:8001' });
  const b = await open(url, { maxProfiles: 5, instance: 'host-b:8002' });
  for (let i = 0; i < 4; i++)
    a.storage.writeBatch([storedEntry(profile200({ token: nthToken(i), time: T0 + i * 1000 }))]);
  await a.storage.flush();
  assert.ok(await waitFor(() => b.storage.has(nthToken(3)), 10_000), 'b learns what a wrote');
  for (let i = 4; i < 8; i++)
    b.storage.writeBatch([storedEntry(profile200({ token: nthToken(i), time: T0 + i * 1000 }))]);
  await b.storage.flush();
  assert.equal(
    (await a.storage.search({ limit: 100 })).map((s) => s.token),
    [7, 6, 5, 4, 3].map(nthToken),
  );
});

writers(
  'when a server opens the store again under the same host name and port, then has() knows the tokens its earlier run wrote a moment later (open() does not wait to read them)',
  async () => {
    const url = await server.createDatabase();
    const first = await open(url, { instance: 'host-a:8001' });
    for (let i = 0; i < 5; i++)
      first.storage.writeBatch([storedEntry(profile200({ token: nthToken(600 + i), time: T0 + i }))]);
    await first.storage.close();
    const other = await open(url, { instance: 'host-b:8002' });
    other.storage.writeBatch([storedEntry(profile200({ token: 'b00b00', time: T0 }))]);
    await other.storage.flush();
    const again = await open(url, { instance: 'host-a:8001' });
    for (const deadline = Date.now() + 10_000; !again.storage.has('b00b00') && Date.now() < deadline; )
      await new Promise((resolve) => setTimeout(resolve, 50));
    for (let i = 0; i < 5; i++) assert.ok(again.storage.has(nthToken(600 + i)), nthToken(600 + i));
    assert.ok(again.storage.has('b00b00'));
    assert.not.ok(again.storage.has('c0ffee'));
    assert.is(again.storage.stats().profiles, 6);
  },
);

writers(
  "when a server writes alone, then learning the others' tokens reads a few rows back from the newest, never every row it wrote",
  async () => {
    const url = await server.createDatabase();
    const { storage } = await open(url, { instance: 'host-a:8001' });
    const rows = 8_000;
    await sql(
      url,
      `INSERT INTO appkernel_profiles (token, time, status, ip, method, url_hash, duration, instance, profiler, bytes, body)
    SELECT lpad(to_hex(n), 6, '0'), $1::float8 + n, 200, '127.0.0.1', 'GET', md5('http://x/' || n)::uuid, 1, 'host-a:8001', false, 10, '\\x7b7d' FROM generate_series(1, $2) AS n`,
      [T0, rows],
    );
    // As the store does after its own writes: without statistics the planner may read the new rows
    // by a sequential scan until autovacuum analyzes them, which on a loaded machine can be late.
    await sql(url, 'ANALYZE appkernel_profiles');
    const read = async () =>
      (
        await sql(
          url,
          `SELECT pg_stat_clear_snapshot(), seq_scan + coalesce(idx_scan, 0) AS scans, seq_tup_read + coalesce(idx_tup_fetch, 0) AS tuples
    FROM pg_stat_user_tables WHERE relname = 'appkernel_profiles'`,
        )
      ).rows[0] as { scans: string; tuples: string };
    // Learnt once: the newest seq is known from then on.
    assert.ok(await waitFor(async () => Number((await read()).scans) >= 2, 10_000));
    const start = await read();
    let end = start;
    assert.ok(
      await waitFor(async () => {
        end = await read();
        return Number(end.scans) - Number(start.scans) >= 4;
      }, 15_000),
      "the store looks for others' tokens twice a second",
    );
    const perScan = (Number(end.tuples) - Number(start.tuples)) / (Number(end.scans) - Number(start.scans));
    assert.ok(perScan < rows / 2, `${perScan.toFixed(0)} rows read per scan of ${rows}`);
    await storage.flush();
  },
);

writers.run();

// ---

const schema = suite('PostgresStorage schema');
schema.after.each(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

schema('when the database is empty, then opening creates the tables at the current version', async () => {
  const url = await server.createDatabase();
  await open(url);
  assert.equal((await sql(url, 'SELECT version FROM appkernel_schema')).rows, [{ version: SCHEMA_VERSION }]);
});

schema('when the database holds an older schema with profiles, then opening upgrades it and keeps them', async () => {
  const url = await server.createDatabase();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await migrate(client, 1);
  await client.query(
    `INSERT INTO appkernel_profiles (token, time, status, ip, method, url, duration, instance, profiler, bytes, body)
    VALUES ('01d001', $1, 200, '127.0.0.1', 'GET', 'http://x/old', 1, 'old:1', false, 2, $2)`,
    [T0, Buffer.from(JSON.stringify(profile200({ token: '01d001', time: T0 })))],
  );
  await client.end();
  const { storage } = await open(url);
  assert.equal((await sql(url, 'SELECT version FROM appkernel_schema')).rows, [{ version: SCHEMA_VERSION }]);
  assert.equal(
    (await storage.search({ limit: 10 })).map((s) => s.token),
    ['01d001'],
  );
  assert.equal((await sql(url, "SELECT route FROM appkernel_profiles WHERE token = '01d001'")).rows, [{ route: null }]);
  assert.equal(
    await storage.read('01d001'),
    { ...profile200({ token: '01d001', time: T0 }), instance: 'old:1' },
    'a row written before blocks reads as it was',
  );
  assert.equal(
    (await storage.search({ limit: 10, url: 'x/ol' })).map((s) => [s.token, s.url]),
    [['01d001', 'http://x/old']],
    'found by a part of its URL',
  );
});

schema(
  'when the database holds profiles of the schema with a URL in every row, then upgrading keeps each distinct URL once and every profile found by it',
  async () => {
    const url = await server.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await migrate(client, 7);
    const urls = ['http://x/a?q=100%', 'http://x/b', 'http://x/a?q=100%', 'http://x/c_d', 'http://x/b'];
    for (const [i, address] of urls.entries()) {
      await client.query(
        `INSERT INTO appkernel_profiles (token, time, status, ip, method, url, duration, instance, profiler, bytes, body)
      VALUES ($1, $2, 200, '127.0.0.1', 'GET', $3, 1, 'old:1', false, 2, $4)`,
        [
          nthToken(i),
          T0 + i,
          address,
          Buffer.from(JSON.stringify(profile200({ token: nthToken(i), time: T0 + i, url: address }))),
        ],
      );
    }
    await client.end();
    const { storage } = await open(url);
    const found = async (part: string) => (await storage.search({ limit: 10, url: part })).map((s) => [s.token, s.url]);
    assert.equal(await found('100%'), [
      [nthToken(2), urls[2]],
      [nthToken(0), urls[0]],
    ]);
    assert.equal(await found('x/b'), [
      [nthToken(4), urls[4]],
      [nthToken(1), urls[1]],
    ]);
    assert.equal(await found('c_d'), [[nthToken(3), urls[3]]]);
    assert.equal(await found('x/c%'), [], 'the wildcards of LIKE match themselves only');
    assert.is(await storage.count({ limit: 1, url: 'http://x/' }), 5);
    assert.equal(
      (await sql(url, 'SELECT url FROM appkernel_urls ORDER BY url')).rows.map((row) => row.url),
      ['http://x/a?q=100%', 'http://x/b', 'http://x/c_d'],
    );
    const columns = (
      await sql(url, "SELECT column_name FROM information_schema.columns WHERE table_name = 'appkernel_profiles'")
    ).rows.map((row) => row.column_name);
    assert.not.ok(columns.includes('url'), columns.join(', '));
    const indexes = (
      await sql(url, "SELECT indexname FROM pg_indexes WHERE tablename IN ('appkernel_profiles', 'appkernel_urls')")
    ).rows.map((row) => row.indexname);
    assert.not.ok(indexes.includes('appkernel_profiles_url_trgm'), 'no trigram index on every profile row');
    assert.ok(indexes.includes('appkernel_urls_url_trgm'), indexes.join(', '));
    assert.equal(await storage.read(nthToken(3)), {
      ...profile200({ token: nthToken(3), time: T0 + 3, url: urls[3] }),
      instance: 'old:1',
    });
  },
);

schema(
  'when the database holds profiles of schema 8, then upgrading keeps them found by every status and method, and only the uncommon kinds take entries in those indexes',
  async () => {
    const url = await server.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await migrate(client, 8);
    const kinds: [number, string][] = [
      [200, 'GET'],
      [404, 'get'],
      [500, 'POST'],
      [201, 'post'],
      [200, 'GET'],
      [302, 'DELETE'],
    ];
    for (const [i, [status, method]] of kinds.entries()) {
      const profile = profile200({ token: nthToken(i), time: T0 + i, status, method, url: `http://x/${i}` });
      await client.query(`INSERT INTO appkernel_urls (hash, url) VALUES (md5($1)::uuid, $1)`, [profile.url]);
      await client.query(
        `INSERT INTO appkernel_profiles (token, time, status, ip, method, url_hash, duration, instance, profiler, bytes, body)
      VALUES ($1, $2, $3, '127.0.0.1', $4, md5($5)::uuid, 1, 'old:1', false, 2, $6)`,
        [nthToken(i), T0 + i, status, method, profile.url, Buffer.from(JSON.stringify(profile))],
      );
    }
    await client.end();
    const { storage } = await open(url);
    storage.writeBatch([storedEntry(profile200({ token: nthToken(6), time: T0 + 6, status: 404, method: 'PUT' }))]);
    storage.writeBatch([storedEntry(profile200({ token: nthToken(7), time: T0 + 7 }))]);
    await storage.flush();
    const found = async (query: Omit<SearchQuery, 'limit'>) =>
      (await storage.search({ limit: 10, ...query })).map((s) => s.token);
    assert.equal(await found({ status: '2xx' }), [7, 4, 3, 0].map(nthToken));
    assert.equal(await found({ status: '200', method: 'get' }), [7, 4, 0].map(nthToken));
    assert.equal(await found({ status: '4xx' }), [6, 1].map(nthToken));
    assert.equal(await found({ status: '5xx', method: 'post' }), [nthToken(2)]);
    assert.equal(await found({ method: 'GET' }), [7, 4, 1, 0].map(nthToken));
    assert.equal(await found({ method: 'Post' }), [3, 2].map(nthToken));
    assert.equal(await found({ method: 'delete' }), [nthToken(5)]);
    assert.is(await storage.count({ limit: 1, method: 'get' }), 4);
    // Built again, an index's row count is its entries: the predicate it is built with is the one each insert meets.
    await sql(url, 'REINDEX TABLE appkernel_profiles');
    const entries = async (index: string) =>
      (await sql(url, 'SELECT reltuples::int AS n FROM pg_class WHERE relname = $1', [index])).rows[0].n;
    assert.is(await entries('appkernel_profiles_status_class'), 4, 'the 4xx, 5xx and 3xx profiles');
    assert.is(await entries('appkernel_profiles_method'), 4, 'the POST, DELETE and PUT profiles');
    assert.is(await entries('appkernel_profiles_time'), 8);
  },
);

schema(
  'when profiles are pruned or cleared, then the URLs no profile names any more are deleted, the others kept',
  async () => {
    const url = await server.createDatabase();
    const { storage } = await open(url);
    // The oldest 30 each have a URL of their own; the newest 30 share three.
    for (let i = 0; i < 60; i++)
      storage.writeBatch([
        storedEntry(
          profile200({
            token: nthToken(i),
            time: T0 + i,
            url: i < 30 ? `http://x/orders/${i}` : `http://x/hello/${i % 3}`,
          }),
        ),
      ]);
    await storage.flush();
    const stored = async () =>
      (await sql(url, 'SELECT url FROM appkernel_urls ORDER BY url')).rows.map((row) => row.url);
    assert.is((await stored()).length, 33);
    assert.is(await storage.prune({ keep: 40 }), 20);
    assert.equal(
      await stored(),
      [
        ...['http://x/hello/0', 'http://x/hello/1', 'http://x/hello/2'],
        ...Array.from({ length: 10 }, (_, i) => `http://x/orders/${20 + i}`),
      ].sort(),
    );
    assert.equal(
      (await storage.search({ limit: 50, url: '/orders/2' })).map((s) => s.url),
      Array.from({ length: 10 }, (_, i) => `http://x/orders/${29 - i}`),
    );
    storage.writeBatch([storedEntry(profile200({ token: nthToken(100), time: T0 + 100, url: 'http://x/orders/20' }))]);
    await storage.flush();
    assert.is(
      (await storage.search({ limit: 50, url: '/orders/20' })).length,
      2,
      'a URL written again is named by both its profiles',
    );
    await storage.clear();
    assert.equal(await stored(), []);
  },
);

schema(
  'when profiles are pruned, then the blocks none of whose profiles are left are deleted, and the profiles left read as they were written',
  async () => {
    const url = await server.createDatabase();
    const { storage } = await open(url);
    const written = Array.from({ length: 300 }, (_, i) =>
      (i % 3 ? profile200 : profile404)({ token: nthToken(i), time: T0 + i, seed: i }),
    );
    for (const [i, profile] of written.entries()) {
      storage.writeBatch([storedEntry(profile)]);
      if (i % 50 === 49) await storage.flush();
    }
    await storage.flush();
    const blocks = async () => (await sql(url, 'SELECT count(*)::int AS n FROM appkernel_profile_blocks')).rows[0].n;
    const before = await blocks();
    assert.ok(before >= 300 / 32, `${before} blocks`);
    assert.is(await storage.prune({ keep: 40 }), 260);
    assert.ok((await blocks()) < before);
    const orphans = await sql(
      url,
      'SELECT count(*)::int AS n FROM appkernel_profile_blocks b WHERE NOT EXISTS (SELECT 1 FROM appkernel_profiles p WHERE p.block = b.id)',
    );
    assert.is(orphans.rows[0].n, 0, 'every block left holds a profile left');
    for (const profile of written.slice(-40))
      assert.equal(await storage.read(profile.token), { ...profile, instance: storage.instance });
    assert.is(await storage.read(written[0].token), null);
    await storage.clear();
    assert.is(await blocks(), 0);
  },
);

schema('when the database holds a newer schema, then opening is refused with a message saying so', async () => {
  const url = await server.createDatabase();
  await open(url);
  await sql(url, 'UPDATE appkernel_schema SET version = 99');
  const error = await openError(url);
  assert.is(error.code, 'APP_ERR_PROFILER_STORE_SCHEMA');
  assert.match(error.message, `schema version 99, newer than this appkernel knows (${SCHEMA_VERSION})`);
});

schema('when two instances open an empty database at once, then both work on one schema', async () => {
  const url = await server.createDatabase();
  const [a, b] = await Promise.all([open(url), open(url)]);
  a.storage.writeBatch([storedEntry(profile200({ token: 'aa0001', time: T0 }))]);
  await a.storage.flush();
  assert.is((await b.storage.read('aa0001'))?.token, 'aa0001');
});

schema.run();

// ---

const failures = suite('PostgresStorage cannot be opened');

failures('when the URL is malformed, then one line names the problem', async () => {
  for (const [url, expected] of [
    ['postgres://', /Invalid profile database URL/],
    ['postgres://user@host:5432', /names no database/],
    ['postgres://user:hunter2@host:notaport/db', /Invalid profile database URL/],
  ] as const) {
    const error = await openError(url);
    assert.is(error.code, 'APP_ERR_PROFILER_STORE_URL', url);
    assert.match(error.message, expected);
    assert.not.match(error.message, /hunter2|\n/);
  }
});

failures('when the password is wrong, then one line names the user and never the password', async () => {
  const error = await openError(
    withUrl(server.url, (u) => {
      u.password = 'wrong-secret';
    }),
  );
  assert.is(error.code, 'APP_ERR_PROFILER_STORE_AUTH');
  assert.match(error.message, /refused user "postgres": wrong user or password/);
  assert.not.match(error.message, /wrong-secret|\n/);
});

failures('when the database does not exist, then one line names it', async () => {
  const error = await openError(
    withUrl(server.url, (u) => {
      u.pathname = '/no_such_db';
    }),
  );
  assert.is(error.code, 'APP_ERR_PROFILER_STORE_NO_DATABASE');
  assert.match(error.message, /The profile database "no_such_db" does not exist on 127\.0\.0\.1:\d+/);
});

failures('when nothing listens at the address, then one line says the database cannot be reached', async () => {
  const error = await openError(
    withUrl(server.url, (u) => {
      u.port = '1';
    }),
  );
  assert.is(error.code, 'APP_ERR_PROFILER_STORE_UNAVAILABLE');
  assert.match(
    error.message,
    /^Cannot reach the profile database at 127\.0\.0\.1:1 \(ECONNREFUSED\): is PostgreSQL running there\?$/,
  );
  assert.not.match(error.message, new RegExp(PASSWORD));
});

failures('when openStorage is given a folder, then the embedded store; given a URL, then PostgreSQL', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/appkernel-open-`);
  const file = await openStorage(dir);
  assert.instance(file, FileStorage);
  await file.close();
  rmSync(dir, { recursive: true, force: true });
  const database = await openStorage(await server.createDatabase(), { onWarning: () => {} });
  assert.is(database.constructor.name, 'PostgresStorage');
  await database.close();
});

failures.run();

// ---

const away = suite('PostgresStorage while the database goes away');
away.after.each(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

away(
  'when the server stops while profiles are written, then they are queued, readable, and written once it is back, with one warning each way',
  async () => {
    const url = await server.createDatabase();
    const { intake: storage, warnings } = await open(url);
    storage.writeBatch([storedEntry(profile200({ token: 'be0000', time: T0 }))]);
    await storage.flush();
    server.stopServer();
    try {
      for (let i = 1; i <= 20; i++)
        storage.writeBatch([storedEntry(profile200({ token: nthToken(100 + i), time: T0 + i }))]);
      assert.is((await storage.read(nthToken(101)))?.token, nthToken(101), 'a queued profile reads from memory');
      assert.ok(storage.has(nthToken(120)));
      assert.ok(await waitFor(() => warnings.some((w) => /went away/.test(w)), 10_000), warnings.join('\n'));
      assert.is(storage.stats().queued, 20);
    } finally {
      server.startServer();
    }
    await storage.flush();
    assert.is(storage.stats().dropped, 0);
    assert.is(storage.stats().queued, 0);
    assert.is((await storage.search({ limit: 100 })).length, 21);
    assert.is(warnings.filter((w) => /went away/.test(w)).length, 1, warnings.join('\n'));
    assert.is(warnings.filter((w) => /database is back/.test(w)).length, 1, warnings.join('\n'));
  },
);

away(
  'when the database is away longer than the queue holds, then the excess is dropped and counted, with one warning, and the rest written later',
  async () => {
    const url = await server.createDatabase();
    const { intake: storage, warnings } = await open(url, { maxQueue: 5 });
    server.stopServer();
    try {
      for (let i = 0; i < 8; i++)
        storage.writeBatch([storedEntry(profile200({ token: nthToken(200 + i), time: T0 + i }))]);
      assert.is(storage.stats().dropped, 3);
      assert.is(warnings.filter((w) => /dropped/.test(w)).length, 1, warnings.join('\n'));
    } finally {
      server.startServer();
    }
    await storage.flush();
    assert.is((await storage.search({ limit: 100 })).length, 5);
  },
);

away('when a store that dropped profiles closes, then it tells how many it dropped in all', async () => {
  const url = await server.createDatabase();
  const { intake: storage, warnings } = await open(url, { maxQueue: 5 });
  server.stopServer();
  try {
    for (let i = 0; i < 9; i++)
      storage.writeBatch([storedEntry(profile200({ token: nthToken(300 + i), time: T0 + i }))]);
  } finally {
    server.startServer();
  }
  await storage.close();
  assert.is(warnings.at(-1), '4 profiles were dropped in all since the profile store was opened.');
});

away.run();

// ---

const room = suite(
  'ProfileIntake.whenRoom on PostgresStorage: requests wait for a writer that is behind, never for a database away',
);
room.after.each(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const asJson = (profile: Profile) => Buffer.from(JSON.stringify(toStoredForm(profile)), 'utf8');

room(
  'when the database answers and 3/4 of the queue is announced, then whenRoom waits until half of that is left',
  async () => {
    const url = await server.createDatabase();
    const { intake: storage } = await open(url, { maxQueue: 8 });
    assert.is(storage.whenRoom(), null, 'nothing announced');
    const profiles = Array.from({ length: 6 }, (_, i) => profile200({ token: nthToken(400 + i), time: T0 + i }));
    for (const p of profiles) assert.ok(storage.announce(p.token));
    const wait = storage.whenRoom();
    assert.ok(wait, 'six of eight announced: behind');
    storage.writeBatch([{ json: asJson(profiles[0]), summary: summarize(profiles[0]) }]);
    assert.is(await settledYet(wait!), false, 'five announced: still above half of six');
    for (const p of profiles.slice(1, 3)) storage.writeBatch([{ json: asJson(p), summary: summarize(p) }]);
    assert.is(await settledYet(wait!), true, 'three announced: the wait is over');
    for (const p of profiles.slice(3)) storage.writeBatch([{ json: asJson(p), summary: summarize(p) }]);
    await storage.flush();
    assert.is(storage.stats().dropped, 0);
  },
);

room('when the database is away, then whenRoom never waits, however much is announced', async () => {
  const url = await server.createDatabase();
  const { intake: storage, warnings } = await open(url, { maxQueue: 8 });
  assert.is(storage.whenRoom(), null);
  server.stopServer();
  try {
    storage.writeBatch([storedEntry(profile200({ token: nthToken(500), time: T0 }))]);
    assert.ok(await waitFor(() => warnings.some((w) => /went away/.test(w)), 10_000), warnings.join('\n'));
    for (let i = 1; i <= 6; i++) assert.ok(storage.announce(nthToken(500 + i)));
    assert.is(storage.whenRoom(), null);
    for (let i = 1; i <= 6; i++) storage.cancel(nthToken(500 + i), 'test');
  } finally {
    server.startServer();
  }
});

room(
  "when the worker's writer reports the database away, then a wait under way ends at once and no new one starts",
  async () => {
    const url = await server.createDatabase();
    const { intake: storage } = await open(url, { maxQueue: 8 });
    assert.is(storage.whenRoom(), null);
    for (let i = 0; i < 6; i++) assert.ok(storage.announce(nthToken(600 + i)));
    const wait = storage.whenRoom();
    assert.ok(wait);
    assert.is(await settledYet(wait!), false);
    storage.written({ stored: [], dropped: [], warnings: [], away: true }, true);
    assert.is(await settledYet(wait!), true);
    assert.is(storage.whenRoom(), null);
    storage.written({ stored: [], dropped: [], warnings: [], away: false }, true);
    assert.ok(storage.whenRoom(), 'the database is back and the writer still behind');
    for (let i = 0; i < 6; i++) storage.cancel(nthToken(600 + i), 'test');
  },
);

room(
  'when the writer stores nothing for a second while behind (a database that hangs), then whenRoom stops waiting for it',
  async () => {
    const url = await server.createDatabase();
    const { intake: storage } = await open(url, { maxQueue: 8 });
    assert.is(storage.whenRoom(), null);
    for (let i = 0; i < 6; i++) assert.ok(storage.announce(nthToken(700 + i)));
    assert.ok(storage.whenRoom());
    assert.ok(await waitFor(() => storage.whenRoom() === null, 10_000), 'no wait once the writer has stalled');
    for (let i = 0; i < 6; i++) storage.cancel(nthToken(700 + i), 'test');
  },
);

room.run();
