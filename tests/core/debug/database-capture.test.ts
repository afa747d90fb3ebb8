import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../../core/profiler/profile.js';
import { runAppInProcess } from '../../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../../helpers/serve.js';
import { serveDatabaseApp, type DatabaseServer } from './database-app.js';

const test = suite(
  'the Database panel records the queries of pg, pg.Pool, Kysely on pg and mysql2 against real servers, per request',
);
let t: DatabaseServer;

test.before(async () => {
  t = await serveDatabaseApp();
});
test.after(async () => {
  await t.remove();
});

async function profiled(path: string): Promise<Profile> {
  const r = await fetchText(`${t.base}${path}`);
  assert.is(r.status, 200, `${path}: ${r.body}`);
  return fetchProfileJson(t.base, r.headers['x-debug-token']);
}

test('when a controller queries through a pg.Client, then the query, its parameters, rows, time, database and calling line are recorded', async () => {
  const db = (await profiled('/pg/direct')).collectors.db!;
  assert.is(db.queries.length, 1);
  const [query] = db.queries;
  assert.is(query.driver, 'pg');
  assert.is(query.sql, 'SELECT $1::int + 1 AS n');
  assert.equal(query.params, [41]);
  assert.is(query.rows, 1);
  assert.is(query.error, null);
  assert.ok(typeof query.duration === 'number' && query.duration > 0 && query.start > 0);
  const url = new URL(t.postgres.url);
  assert.equal(query.database, {
    host: '127.0.0.1',
    port: Number(url.port),
    name: url.pathname.slice(1),
    user: 'postgres',
  });
  assert.equal(query.frame, {
    function: 'direct',
    file: 'app.config.ts',
    line: t.lineOf("client.query('SELECT $1::int"),
  });
  assert.is(query.runnable, 'SELECT 41::int + 1 AS n');
});

test('when a controller queries through pg.Pool, Kysely and mysql2 (query and execute), then each query is recorded with its driver and database', async () => {
  const pool = (await profiled('/pg/pool')).collectors.db!;
  assert.equal(
    pool.queries.map((q) => [q.sql, q.params, q.rows, q.frame?.line]),
    [
      [
        'SELECT name FROM users WHERE id = $1',
        [1],
        1,
        t.lineOf("pool.query<Row>('SELECT name FROM users WHERE id = $1', [1])"),
      ],
    ],
  );
  const kysely = (await profiled('/pg/kysely')).collectors.db!;
  assert.is(kysely.queries.length, 1);
  assert.is(kysely.queries[0].sql, 'select "name" from "users" where "id" = $1');
  assert.equal(kysely.queries[0].params, [2]);
  assert.is(kysely.queries[0].frame?.line, t.lineOf("kysely.selectFrom('users')"));
  const maria = (await profiled('/maria')).collectors.db!;
  assert.equal(
    maria.queries.map((q) => [q.driver, q.sql, q.params, q.rows, q.database.port, q.database.name]),
    [
      ['mysql2', 'SELECT name FROM users WHERE id = 1', [1], 1, t.maria.port, 'app'],
      ['mysql2', 'SELECT ? + 1 AS n', [41], 1, t.maria.port, 'app'],
    ],
  );
  assert.is(maria.queries[1].runnable, 'SELECT 41 + 1 AS n');
  assert.is(maria.queries[0].frame?.line, t.lineOf("maria.query('SELECT name FROM users WHERE id = ?'"));
});

test("when a controller runs the same select 20 times in a loop, then one repeated-query warning names the controller's line, the count and the total time", async () => {
  const db = (await profiled('/n-plus-one')).collectors.db!;
  assert.is(db.queries.length, 20);
  assert.is(db.groups.length, 1);
  assert.is(db.groups[0].count, 20);
  assert.is(db.repeated.length, 1);
  const [repeat] = db.repeated;
  assert.is(repeat.count, 20);
  assert.equal(repeat.frame, { function: 'nPlusOne', file: 'app.config.ts', line: t.lineOf('// the N+1 line') });
  assert.ok(Math.abs(repeat.totalTime - db.totalTime) < 1e-6 && repeat.totalTime > 0);
});

test("when a statement runs again in the same step of a request, then its later runs are marked as assumed from its first run's place, and the page and the terminal say so", async () => {
  const n = await profiled('/n-plus-one');
  const line = t.lineOf('// the N+1 line');
  assert.equal(
    n.collectors.db!.queries.map((q) => [q.frame?.line, q.frameAssumed]),
    Array.from({ length: 20 }, (_, i) => [line, i >= 1]),
  );
  const page = await fetchText(`${t.base}/_profiler/${n.token}?panel=db`);
  assert.is(page.body.split('(nPlusOne)</span> (assumed)').length - 1, 19);
  assert.match(page.body, /has its stack taken on its first run only \(app serve --query-stacks\)/);
  const text = await runAppInProcess(['profiles', 'show', n.token, '--panel', 'db', '--store', t.storeDir]);
  assert.is(text.code, 0, text.stderr);
  assert.is(text.stdout.split(`app.config.ts:${line} (nPlusOne) (assumed)`).length - 1, 19);
  assert.match(text.stdout, /has its stack taken on its first run only \(app serve --query-stacks\)/);

  // the known limit: one statement from several lines of one step is shown at its first run's line, marked
  const places = (await profiled('/places')).collectors.db!.queries;
  const placeA = t.lineOf('// place A');
  assert.equal(
    places.slice(0, 4).map((q) => [q.frame?.line, q.frameAssumed]),
    [
      [placeA, false],
      [placeA, true],
      [placeA, true],
      [placeA, true],
    ],
  );
  const loop = t.lineOf('// the mysql2 loop line');
  assert.equal(
    places.slice(4, 9).map((q) => [q.driver, q.frame?.line, q.frameAssumed]),
    [false, true, true, true, true].map((assumed) => ['mysql2', loop, assumed]),
  );
  // through a pool, with the values inlined by mysql2 (a text of its own each run): counted as the app wrote it
  const poolLoop = t.lineOf('// the mysql2 pool loop line');
  assert.equal(
    places.slice(9).map((q) => [q.sql, q.frame?.line, q.frameAssumed]),
    [1, 2, 3, 4].map((id) => [`SELECT id FROM users WHERE id = ${id}`, poolLoop, id > 1]),
  );
});

test('when a guard and then the controller run the same statement, then each takes its own first stack: both places are exact', async () => {
  const queries = (await profiled('/guarded')).collectors.db!.queries;
  const guard = t.lineOf("// the guard's line");
  const controller = t.lineOf("// the guarded controller's line");
  assert.equal(
    queries.map((q) => [q.frame?.line, q.frameAssumed]),
    [
      [guard, false],
      [controller, false],
      [controller, true],
    ],
  );
});

test('when one line runs a statement several times at once through a pool, then each run shows that line, whichever runs first, and one of them took its stack', async () => {
  const queries = (await profiled('/parallel')).collectors.db!.queries;
  const pgLine = t.lineOf('// the parallel pg line');
  const mysqlLine = t.lineOf('// the parallel mysql2 line');
  assert.equal(
    queries.map((q) => [q.driver, q.frame?.line]),
    [
      ['pg', pgLine],
      ['pg', pgLine],
      ['pg', pgLine],
      ['mysql2', mysqlLine],
      ['mysql2', mysqlLine],
      ['mysql2', mysqlLine],
    ],
  );
  for (const driver of ['pg', 'mysql2'])
    assert.is(queries.filter((q) => q.driver === driver && !q.frameAssumed).length, 1, driver);
});

test('when two requests run the same statement at once, then each counts its own runs: each takes the stack of its first', async () => {
  const both = await Promise.all([profiled('/n-plus-one'), profiled('/n-plus-one')]);
  for (const profile of both)
    assert.equal(
      profile.collectors.db!.queries.slice(0, 3).map((q) => q.frameAssumed),
      [false, true, true],
    );
});

test("when a query fails, then it is recorded with the driver's error", async () => {
  const db = (await profiled('/pg/failing')).collectors.db!;
  assert.is(db.errors, 1);
  assert.match(db.queries[0].error ?? '', /relation "no_such_table" does not exist/);
  assert.is(db.queries[0].rows, null);
});

test("when a pg.Client's query given as text fails, then the app gets the promise of the client's Promise, rejected with the driver's error whose stack leads back to the app, as pg's own", async () => {
  const r = await fetchText(`${t.base}/pg/client-failing`);
  assert.is(r.status, 200, r.body);
  const body = JSON.parse(r.body) as { appPromise: boolean; failed: string; stack: string };
  assert.ok(body.appPromise, 'the promise is of the Promise given to the client');
  assert.match(body.failed, /relation "no_such_table" does not exist/);
  assert.match(body.stack, /at async clientFailing /);
  assert.not.match(body.stack, /pg-query-capture/);
  const db = (await fetchProfileJson(t.base, r.headers['x-debug-token'])).collectors.db!;
  assert.equal(
    db.queries.map((query: { sql: string; rows: number | null; error: string | null }) => [
      query.sql,
      query.rows,
      query.error?.replace(/ does not exist.*/, '') ?? null,
    ]),
    [
      ['SELECT 1', 1, null],
      ['SELECT * FROM no_such_table', null, 'relation "no_such_table"'],
    ],
  );
});

test('when two requests query at once, then each profile holds only its own queries', async () => {
  const [a, b] = await Promise.all([profiled('/tagged/alpha'), profiled('/tagged/beta')]);
  for (const [profile, tag] of [
    [a, 'alpha'],
    [b, 'beta'],
  ] as const) {
    const db = profile.collectors.db!;
    assert.is(db.queries.length, 2, `${tag}: ${JSON.stringify(db.queries.map((q) => q.params))}`);
    assert.equal(
      db.queries.map((q) => q.params),
      [[tag], [tag]],
    );
  }
});

test('when two requests share a pool of one client, then the query that waited for the client the other freed is recorded in its own request, with its line', async () => {
  const [a, b] = await Promise.all([profiled('/queued/alpha'), profiled('/queued/beta')]);
  for (const [profile, tag] of [
    [a, 'alpha'],
    [b, 'beta'],
  ] as const) {
    const db = profile.collectors.db!;
    assert.equal(
      db.queries.map((q) => [q.params, q.frame?.line, q.frameAssumed]),
      [
        [[tag], t.lineOf('// the queued line'), false],
        [[tag], t.lineOf('// the queued callback line'), false],
      ],
      tag,
    );
  }
});

test('when a query compares a secret column, then its parameter and literal never reach the store', async () => {
  const profile = await profiled('/pg/secret');
  const [pg, maria] = profile.collectors.db!.queries;
  assert.equal(pg.params, ['ann', '[REDACTED]']);
  assert.ok(pg.redacted.includes('$2'), pg.redacted.join());
  assert.is(pg.runnable, "SELECT id FROM users WHERE name = 'ann' AND password = '[REDACTED]'");
  assert.is(maria.sql, "SELECT 1 FROM users WHERE password = '[REDACTED]'");
  const stored = (await fetchText(`${t.base}/_profiler/${profile.token}.json`)).body;
  for (const secret of ['hunter2-very-secret', 'maria-literal-secret'])
    assert.not.ok(stored.includes(secret), `the stored profile holds ${secret}`);
});

test.run();
