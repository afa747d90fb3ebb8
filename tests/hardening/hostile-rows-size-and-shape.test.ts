import { deflateRawSync } from 'node:zlib';
import { load } from 'cheerio';
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DICTIONARY_V1 } from '../../core/profiler/storage/compression-dictionary.js';
import { type CliResult, runApp, runAppInProcess, runCliInProcess, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';
import { startServesOnPostgres, type ServesOnPostgres } from '../helpers/serves-on-postgres.js';
import type { TempPostgres } from '../helpers/temp-postgres.js';

const test = suite(
  'hostile rows in a shared PostgreSQL store (plain SQL): bounded reads, a 422 page and a one-line CLI error, never a 500',
);
let served: ServesOnPostgres;
let database: TempPostgres;
let serve: ServeProcess;
let client: pg.Client;

test.before(async () => {
  served = await startServesOnPostgres('appkernel-hostile-size-');
  ({
    database,
    serves: [serve],
  } = served);
  await fetchText(`${serve.base}/hello/schema`);
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});

test.after(async () => {
  await client?.end();
  await served?.close();
});

/** A summary row with its own URL, whose body (or block) the caller sets with SQL fragments. */
async function plant(token: string, url: string, body: { sql: string; params: unknown[] }): Promise<void> {
  await client.query('INSERT INTO appkernel_urls (hash, url) VALUES (md5($1)::uuid, $1) ON CONFLICT DO NOTHING', [url]);
  const first = 3;
  const bodySql = body.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + first}`);
  await client.query(
    `INSERT INTO appkernel_profiles (token, time, status, ip, method, url_hash, duration, instance, profiler, bytes, body, block, slot)
    SELECT $1, $2, 200, '127.0.0.1', 'GET', md5($3)::uuid, 1, 'planted:1', false, 100, ${bodySql}`,
    [token, Date.now() - 1_000, url, ...body.params],
  );
}

/** `cli` is the real bin, or (where a test reads many rows) the CLI run in this process. */
async function expectDamaged(
  token: string,
  damage: RegExp,
  cli: (args: string[]) => Promise<CliResult> = runApp,
): Promise<void> {
  const page = await fetchText(`${serve.base}/_profiler/${token}`);
  assert.is(page.status, 422, `${token}: ${page.body.slice(0, 300)}`);
  const text = load(page.body).root().text();
  assert.match(text, 'This profile is damaged or too large.');
  assert.match(text, damage);
  assert.is((await fetchText(`${serve.base}/_profiler/${token}.json`)).status, 422);
  const shown = await cli(['profiles', 'show', token, '--store', database.url]);
  assert.is(shown.code, 1, shown.stdout);
  assert.is(shown.stderr.trim().split('\n').length, 1, `one line: ${shown.stderr}`);
  assert.match(shown.stderr, damage);
  assert.not.match(shown.stderr, /\n\s+at /, 'no stack');
}

test('when a block inflates to 200 MB (a 200 KB "bomb"), then inflating stops at the cap and the profile is refused as too large', async () => {
  const bomb = Buffer.concat([
    Buffer.from([1]),
    deflateRawSync(Buffer.alloc(200 * 1024 * 1024, 0x20), { dictionary: DICTIONARY_V1, level: 9 }),
  ]);
  assert.ok(bomb.length < 1024 * 1024, `${bomb.length} bytes`);
  const { rows } = await client.query<{ id: string }>(
    'INSERT INTO appkernel_profile_blocks (body, newest) VALUES ($1, $2) RETURNING id',
    [bomb, Date.now()],
  );
  await plant('b0b001', 'http://127.0.0.1:1/bomb', { sql: 'NULL, $1::bigint, 0', params: [rows[0].id] });
  await expectDamaged('b0b001', /inflates to more than the \d+ bytes a profile may take/);
});

test('when a row holds a 100 MB body, then it is measured in the database, never fetched, and refused as too large', async () => {
  await plant('b0b002', 'http://127.0.0.1:1/huge', {
    sql: "convert_to(repeat('x', 100 * 1024 * 1024), 'UTF8'), NULL, NULL",
    params: [],
  });
  await expectDamaged('b0b002', /it is 104857600 bytes, more than the \d+ a profile may take/, runAppInProcess);
});

test('when a row has a 20 MB URL, then the search page and profiles list answer with it cut at the query, and its profile is refused', async () => {
  const url = `http://127.0.0.1:1/${'u'.repeat(20 * 1024 * 1024)}`;
  const body = JSON.stringify({
    version: 1,
    token: 'b0b003',
    status: 200,
    ip: '127.0.0.1',
    method: 'GET',
    url,
    time: Date.now(),
    duration: 1,
    collectors: {},
  });
  await plant('b0b003', url, { sql: "convert_to($1, 'UTF8'), NULL, NULL", params: [body] });
  const search = await fetchText(`${serve.base}/_profiler/search?limit=50`);
  assert.is(search.status, 200);
  assert.ok(search.body.includes('b0b003'));
  assert.ok(search.body.length < 200_000, `the search page is ${search.body.length} characters`);
  const listed = await runAppInProcess(['profiles', 'list', '--json', '--store', database.url]);
  assert.is(listed.code, 0, listed.stderr);
  assert.ok(listed.stdout.length < 100_000, `profiles list --json printed ${listed.stdout.length} characters`);
  const row = JSON.parse(listed.stdout) as
    | { profiles?: { token: string; url: string }[] }
    | { token: string; url: string }[];
  const rows = Array.isArray(row) ? row : (row.profiles ?? []);
  const planted = rows.find((r) => r.token === 'b0b003');
  assert.ok(planted && planted.url.length <= 4_097 && planted.url.endsWith('…'), 'cut with an ellipsis');
  await expectDamaged('b0b003', /its URL is \d+ characters, more than the 65536 a request may have/, runAppInProcess);
});

test('when rows hold malformed shapes, then each is refused naming what is wrong, and the server goes on serving', async () => {
  const shapes: [string, string, RegExp][] = [
    ['b0b004', '{"token":1}', /its token is not a string/],
    ['b0b005', '[1,2,3]', /it does not hold a profile/],
    [
      'b0b006',
      '{"token":"b0b006","status":200,"time":"yesterday","url":"/x","collectors":{}}',
      /its time is not a valid date/,
    ],
    [
      'b0b007',
      '{"token":"b0b007","status":200,"time":1,"url":"/x","collectors":{"log":{"records":"none"}}}',
      /its log panel holds no list of records/,
    ],
    ['b0b008', 'not json', /it is not valid JSON/],
  ];
  shapes.push([
    'b0b009',
    '{"token":"b0b009","status":200,"time":1,"url":"/x","collectors":{"request":{"headers":{},"response":[]}}}',
    /its request panel's response is not an object/,
  ]);
  for (const [token, json, damage] of shapes) {
    await plant(token, `http://127.0.0.1:1/${token}`, { sql: "convert_to($1, 'UTF8'), NULL, NULL", params: [json] });
    await expectDamaged(token, damage, runCliInProcess);
  }
  assert.is((await fetchText(`${serve.base}/hello/after`)).status, 200);
});

test('when a row holds a panel of another shape, then its page and terminal say that panel is damaged, the others render, and a diff says why it cannot compare', async () => {
  const json = JSON.stringify({
    token: 'b0b00a',
    status: 200,
    time: Date.now() - 1_000,
    url: 'http://127.0.0.1:1/b0b00a',
    method: 'GET',
    collectors: {
      request: { method: 'GET', headers: {}, response: { statusCode: 200, headers: {} } },
      events: { events: null },
      log: { records: [] },
    },
  });
  await plant('b0b00a', 'http://127.0.0.1:1/b0b00a', { sql: "convert_to($1, 'UTF8'), NULL, NULL", params: [json] });
  const page = await fetchText(`${serve.base}/_profiler/b0b00a?panel=events`);
  assert.is(page.status, 200, page.body.slice(0, 300));
  const $ = load(page.body);
  assert.match(
    $('main').text(),
    /The stored data of the Events panel is damaged or of a form this appkernel does not know/,
  );
  assert.is($('.menu a[aria-current] .b.err').text(), '!');
  const shown = await runCliInProcess(['profiles', 'show', 'b0b00a', '--panel', 'events', '--store', database.url]);
  assert.is(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^Events\n-+\nThe stored data of the Events panel is damaged/m);
  const diff = await runCliInProcess(['profiles', 'diff', 'b0b00a', 'b0b00a', '--store', database.url]);
  assert.is(diff.code, 1, diff.stdout);
  assert.match(
    diff.stderr,
    /^app: Profiles "b0b00a" and "b0b00a" cannot be compared: stored data is damaged or of a form this appkernel does not know \(.+\)\.\n$/,
  );
  assert.is((await fetchText(`${serve.base}/hello/after`)).status, 200);
});

test.run();
