import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchText } from '../helpers/serve.js';
import { serveDatabaseApp, type DatabaseServer } from '../core/debug/database-app.js';

const test = suite(
  "EXPLAIN from the Database panel runs through the app's live pool, from the profiler's own page only",
);
let t: DatabaseServer;

test.before(async () => {
  t = await serveDatabaseApp();
});
test.after(async () => {
  await t.remove();
});

async function token(path: string): Promise<string> {
  const r = await fetchText(`${t.base}${path}`);
  assert.is(r.status, 200, r.body);
  return r.headers['x-debug-token'];
}

function explain(profile: string, index: number, headers: Record<string, string> = { origin: t.base }) {
  return fetchText(`${t.base}/_profiler/explain`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: `token=${profile}&query=${index}`,
  });
}

test("when the panel's Explain button of a pg.Pool query is posted from the page, then the page shows PostgreSQL's plan", async () => {
  const profile = await token('/pg/pool');
  const panel = load((await fetchText(`${t.base}/_profiler/${profile}?panel=db`)).body);
  assert.is(panel('form.db-explain').attr('action'), '/_profiler/explain');
  assert.equal(
    panel('form.db-explain input')
      .map((_, input) => `${panel(input).attr('name')}=${panel(input).attr('value')}`)
      .get(),
    [`token=${profile}`, 'query=0'],
  );
  const r = await explain(profile, 0);
  assert.is(r.status, 200, r.body);
  const $ = load(r.body);
  assert.match($('.db-plan').text(), /EXPLAIN SELECT name FROM users WHERE id = \$1/);
  assert.match($('.db-plan-text').text(), /(Index|Seq) Scan .*users/);
});

test('when a query with a redacted parameter is explained, then the plan says which value was explained as "[REDACTED]"', async () => {
  const r = await explain(await token('/pg/secret'), 0);
  assert.is(r.status, 200, r.body);
  const $ = load(r.body);
  assert.match($('.db-plan-text').text(), /Scan .*users/);
  assert.is(
    $('.db-explain-redacted').text(),
    'Explained with $2 as "[REDACTED]": that value was redacted before storage, and a plan can depend on the value.',
  );
  assert.not.ok(r.body.includes('hunter2-very-secret'));
  const plain = load((await explain(await token('/pg/pool'), 0)).body);
  assert.is(plain('.db-explain-redacted').length, 0, 'nothing redacted, no note');
});

test("when a mysql2 query is explained, then the page shows MariaDB's plan as a table", async () => {
  const profile = await token('/maria');
  const r = await explain(profile, 1);
  assert.is(r.status, 200, r.body);
  const $ = load(r.body);
  assert.ok(
    $('.db-plan-table th')
      .map((_, th) => $(th).text())
      .get()
      .includes('select_type'),
  );
  const first = await explain(profile, 0);
  assert.is(first.status, 200, first.body);
  assert.ok(load(first.body)('.db-plan-table td').text().includes('users'));
});

test('when the POST comes from another origin or with no origin, then it is refused with 403 and no query runs', async () => {
  const profile = await token('/pg/pool');
  assert.is((await explain(profile, 0, { origin: 'http://evil.example' })).status, 403);
  assert.is((await explain(profile, 0, {})).status, 403);
  assert.is((await explain(profile, 0, { 'sec-fetch-site': 'same-origin', origin: 'null' })).status, 200);
  assert.is((await explain(profile, 0, { 'sec-fetch-site': 'cross-site', origin: t.base })).status, 403);
});

test('when the statement cannot be explained or the query does not exist, then a clear message answers', async () => {
  const failing = await token('/pg/failing');
  const r = await explain(failing, 0);
  assert.is(r.status, 422);
  assert.match(
    load(r.body)('.db-plan').text(),
    /could not explain this statement: relation "no_such_table" does not exist/,
  );
  assert.is((await explain(failing, 7)).status, 404);
});

test('when the app was reloaded since the query ran, then the answer says its pool is gone', async () => {
  const profile = await token('/pg/pool');
  assert.ok(await t.server.reload());
  const r = await explain(profile, 0);
  assert.is(r.status, 409);
  assert.match(
    load(r.body)('.db-plan').text(),
    /No live connection pool to pg 127\.0\.0\.1:\d+\/\w+ in this server: the app was reloaded/,
  );
  const again = await token('/pg/pool');
  assert.is((await explain(again, 0)).status, 200);
});

test.run();
