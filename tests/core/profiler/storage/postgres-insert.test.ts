import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BATCH_ROWS,
  insertRows,
  planInsertsOnce,
  type ProfileRow,
} from '../../../../core/profiler/storage/postgres-insert.js';
import { bodyAt } from '../../../../core/profiler/storage/postgres-blocks.js';
import {
  BLOCKS_TABLE,
  migrate,
  PROFILES_TABLE,
  URLS_TABLE,
} from '../../../../core/profiler/storage/postgres-schema.js';
import { startTempPostgres } from '../../../helpers/temp-postgres.js';
import { toStoredForm } from '../../../../core/profiler/storage/stored-form.js';
import { nthToken, profile200 } from '../fixtures.js';

const server = await startTempPostgres();

const row = (i: number, change: Partial<ProfileRow> = {}): ProfileRow => ({
  token: nthToken(i),
  time: 1_764_000_000_000.25 + i,
  status: 200,
  ip: '127.0.0.1',
  method: 'GET',
  url: `http://127.0.0.1:8000/p/${i}`,
  duration: 1.5,
  instance: 'host:8000',
  profiler: false,
  bytes: 10,
  route: 'page',
  body: Buffer.from(`{"n":${i}}`),
  ...change,
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: await server.createDatabase() });
  await client.connect();
  await migrate(client);
  return client;
}

test('when rows hold what an array literal must escape, then each column is stored exactly as given', async () => {
  const client = await connect();
  try {
    const awkward = [
      row(1, {
        url: 'http://h/a"b\\c,d{e}f g',
        ip: '"',
        method: 'NULL',
        route: null,
        body: Buffer.from([0, 1, 2, 255, 0]),
      }),
      row(2, { route: 'NULL', instance: 'é:1 \\', profiler: true, status: 404, duration: 0.1 + 0.2 }),
      row(3, { body: Buffer.alloc(0), url: '' }),
      row(5, { time: 1_764_000_000_000 + 1 / 3, duration: 1e-7, ip: 'a}b{c', method: '', route: ' null ' }),
    ];
    // A body that is a view of a larger buffer is stored as the view.
    const slab = Buffer.from('xx{"view":true}yy');
    awkward.push(row(4, { body: slab.subarray(2, 15) }));
    assert.equal((await insertRows(client, awkward)).sort(), awkward.map((r) => r.token).sort());
    const stored =
      await client.query(`SELECT token, time, status, ip, method, u.url, duration, instance, profiler, bytes, route, p.body, b.body AS block, slot
      FROM ${PROFILES_TABLE} p JOIN ${BLOCKS_TABLE} b ON b.id = p.block JOIN ${URLS_TABLE} u ON u.hash = p.url_hash ORDER BY token`);
    const read = stored.rows.map(({ block, slot, body, ...r }) => {
      assert.is(body, null, 'the body is in the block');
      return { ...r, body: bodyAt(block, slot) };
    });
    const expected = [...awkward]
      .sort((a, b) => (a.token < b.token ? -1 : 1))
      .map((r) => ({ ...r, body: Buffer.from(r.body) }));
    assert.equal(read, expected);
  } finally {
    await client.end();
  }
});

test('when batches of any size are inserted, then one prepared statement serves them all', async () => {
  const client = await connect();
  try {
    let n = 0;
    for (const size of [1, 3, 7, BATCH_ROWS]) {
      const batch = Array.from({ length: size }, () => row(100 + n++));
      assert.is((await insertRows(client, batch)).length, size);
    }
    const prepared = await client.query<{ name: string }>(`SELECT name FROM pg_prepared_statements`);
    assert.equal(
      prepared.rows.map((r) => r.name),
      ['appkernel_insert_rows'],
    );
    assert.is((await client.query(`SELECT count(*)::int AS n FROM ${PROFILES_TABLE}`)).rows[0].n, n);
  } finally {
    await client.end();
  }
});

test('when a batch holds more profiles or bytes than a block takes, then they go to several blocks, each profile read back from its own line', async () => {
  const client = await connect();
  try {
    const big = (i: number) => Buffer.from(JSON.stringify({ n: i, pad: 'x'.repeat(i % 3 === 0 ? 70_000 : 3_000 + i) }));
    const rows = Array.from({ length: 100 }, (_, i) => row(i, { body: big(i), time: 1_000 + ((i * 37) % 100) }));
    assert.is((await insertRows(client, rows)).length, 100);
    const stored = await client.query(
      `SELECT token, b.body AS block, slot, b.newest FROM ${PROFILES_TABLE} p JOIN ${BLOCKS_TABLE} b ON b.id = p.block`,
    );
    const byToken = new Map(stored.rows.map((r) => [r.token, r]));
    for (const r of rows) {
      const found = byToken.get(r.token)!;
      assert.equal(bodyAt(found.block, found.slot), r.body);
      assert.ok(found.newest >= r.time, "a block's newest time is at least each of its profiles'");
    }
    const blocks = (await client.query(`SELECT count(*)::int AS n FROM ${BLOCKS_TABLE}`)).rows[0].n;
    assert.ok(blocks > 100 / 32 && blocks < 100, `${blocks} blocks`);
  } finally {
    await client.end();
  }
});

test('when a batch repeats URLs in any order, then each is sent once and every row names its own', async () => {
  const client = await connect();
  try {
    const urls = ['http://h/a', 'http://h/b', 'http://h/a', 'http://h/c', 'http://h/b', 'http://h/a'];
    await insertRows(
      client,
      urls.map((url, i) => row(i, { url })),
    );
    const stored = await client.query(
      `SELECT token, u.url FROM ${PROFILES_TABLE} p JOIN ${URLS_TABLE} u ON u.hash = p.url_hash ORDER BY token`,
    );
    assert.equal(
      stored.rows,
      urls.map((url, i) => ({ token: nthToken(i), url })).sort((a, b) => (a.token < b.token ? -1 : 1)),
    );
    assert.is((await client.query(`SELECT count(*)::int AS n FROM ${URLS_TABLE}`)).rows[0].n, 3);
  } finally {
    await client.end();
  }
});

test('when no token of a batch is taken, then its rows are inserted without a conflict check each', async () => {
  const client = await connect();
  try {
    await insertRows(client, [row(1), row(2)]);
    const prepared = await client.query<{ name: string; statement: string }>(
      `SELECT name, statement FROM pg_prepared_statements`,
    );
    assert.equal(
      prepared.rows.map((r) => r.name),
      ['appkernel_insert_rows'],
    );
    assert.not.match(prepared.rows[0].statement, /ON CONFLICT \(token\)/);
  } finally {
    await client.end();
  }
});

test('when a block takes a few KB, then it stays in its row, none of it in the TOAST table', async () => {
  const client = await connect();
  try {
    const bodies = Array.from({ length: 12 }, (_, i) =>
      Buffer.from(JSON.stringify(toStoredForm(profile200({ token: nthToken(i), time: 1_000 + i, seed: i })))),
    );
    await insertRows(
      client,
      bodies.map((body, i) => row(i, { body })),
    );
    const stored = await client.query(
      `SELECT octet_length(body) AS bytes, (SELECT reltoastrelid::regclass::text FROM pg_class WHERE relname = $1) AS toast FROM ${BLOCKS_TABLE}`,
      [BLOCKS_TABLE],
    );
    assert.is(stored.rows.length, 1);
    assert.ok(
      stored.rows[0].bytes > 2_048,
      `${stored.rows[0].bytes} bytes: more than a row takes before TOAST by default`,
    );
    assert.is((await client.query(`SELECT count(*)::int AS n FROM ${stored.rows[0].toast}`)).rows[0].n, 0);
  } finally {
    await client.end();
  }
});

test('when a writing connection inserts batch after batch, then it planned the statement once', async () => {
  const url = await server.createDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 1, onConnect: planInsertsOnce });
  try {
    const client = await pool.connect();
    await migrate(client);
    for (let b = 0; b < 8; b++) await insertRows(client, [row(2 * b), row(2 * b + 1)]);
    const plans = await client.query(
      `SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE name = 'appkernel_insert_rows'`,
    );
    client.release();
    assert.equal(plans.rows, [{ generic_plans: 8, custom_plans: 0 }]);
  } finally {
    await pool.end();
  }
});

test('when a token is already in the table, then its row is kept and only the new tokens come back', async () => {
  const client = await connect();
  try {
    await insertRows(client, [row(1, { instance: 'first:1' })]);
    assert.equal(await insertRows(client, [row(1, { instance: 'second:2' }), row(2)]), [nthToken(2)]);
    assert.equal(
      await insertRows(client, [row(3), row(4)]),
      [nthToken(3), nthToken(4)],
      'the next batch goes in whole',
    );
    const kept = await client.query(`SELECT instance FROM ${PROFILES_TABLE} WHERE token = $1`, [nthToken(1)]);
    assert.is(kept.rows[0].instance, 'first:1');
  } finally {
    await client.end();
  }
});

test.run();
