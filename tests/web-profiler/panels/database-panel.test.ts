import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../../core/profiler/profile.js';
import { renderProfileText } from '../../../panels/profile-text.js';
import { diffProfiles } from '../../../core/profiler/profile-diff.js';
import { REPLAY_DIFF_FIELDS } from '../../../core/profiler/replay.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callText, newClient } from '../../mcp/mcp-client.js';
import { fetchProfileJson, fetchText } from '../../helpers/serve.js';
import { serveDatabaseApp, type DatabaseServer } from '../../core/debug/database-app.js';

const test = suite('the Database panel shows the queries in the page, the terminal, the toolbar and the timeline');
let t: DatabaseServer;

test.before(async () => {
  t = await serveDatabaseApp({ slowQueryMs: 45, queryStacks: Number.POSITIVE_INFINITY });
});
test.after(async () => {
  await t.remove();
});

async function profiled(path: string): Promise<{ profile: Profile; body: string }> {
  const r = await fetchText(`${t.base}${path}`, { headers: { accept: 'text/html' } });
  assert.is(r.status, 200, `${path}: ${r.body}`);
  return { profile: await fetchProfileJson(t.base, r.headers['x-debug-token']), body: r.body };
}

test('when 20 identical selects ran from one line, then the page warns once naming that line, the count and the total time', async () => {
  const { profile } = await profiled('/n-plus-one');
  const $ = load((await fetchText(`${t.base}/_profiler/${profile.token}?panel=db`)).body);
  assert.ok($('main h2').text().includes('Database'));
  assert.is($('main .db-repeated').length, 1);
  const line = t.lineOf('// the N+1 line');
  assert.match(
    $('main .db-repeated').text(),
    new RegExp(`Repeated query: run 20 times from app\\.config\\.ts:${line} \\(nPlusOne\\), [\\d.]+ ms in all`),
  );
  assert.is($('main table.db-queries tbody tr').length, 20);
  assert.match($('main').text(), /20 queries, [\d.]+ ms in all, 1 distinct statement/);
  assert.ok($('nav').text().includes('N+1'), 'the menu flags the panel');
  const text = renderProfileText(profile, 'db', { color: false });
  assert.match(text, new RegExp(`! Repeated query: run 20 times from app\\.config\\.ts:${line} \\(nPlusOne\\)`));
  assert.match(text, /Runnable: SELECT name FROM users WHERE id = 20\n/);
  assert.match(text, /\n#1 [\d.]+ ms, 1 row\n/, 'one row, not "1 rows"');
});

test('when a request that ran an N+1 is compared with one that ran its statement once, then the diff and replay --diff show the counts and the warning', async () => {
  const loop = (await profiled('/n-plus-one')).profile;
  const once = (await profiled('/pg/pool')).profile;
  const diff = diffProfiles(loop, once);
  const row = (field: string) => diff.rows.find((r) => r.field === field);
  assert.equal(row('database queries'), { field: 'database queries', a: '20', b: '1', same: false });
  assert.equal(row('database failures'), { field: 'database failures', a: '0', b: '0', same: true });
  const line = t.lineOf('// the N+1 line');
  assert.is(row('repeated queries')?.a, `20 × SELECT name FROM users WHERE id = ? at app.config.ts:${line}`);
  assert.is(row('repeated queries')?.b, '(none)');
  assert.not.ok(diff.same);
  for (const field of ['database queries', 'database failures', 'repeated queries'])
    assert.ok(REPLAY_DIFF_FIELDS.has(field), field);
});

test("when a coding agent asks MCP's list_profiles for repeated queries or a least count, then only the requests that match are listed", async () => {
  const loop = (await profiled('/n-plus-one')).profile.token;
  const once = (await profiled('/pg/pool')).profile.token;
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/_profiler/mcp`)));
  try {
    const repeated = await callText(client, 'list_profiles', { repeated_queries: true, limit: 200 });
    assert.not.ok(repeated.isError, repeated.text);
    assert.ok(repeated.text.includes(loop), repeated.text);
    assert.not.ok(repeated.text.includes(once), repeated.text);
    const least = await callText(client, 'list_profiles', { min_queries: 1, limit: 200 });
    assert.ok(least.text.includes(loop) && least.text.includes(once), least.text);
    const many = await callText(client, 'list_profiles', { min_queries: 2, limit: 200 });
    assert.ok(many.text.includes(loop), many.text);
    assert.not.ok(many.text.includes(once), many.text);
    const wrong = await callText(client, 'list_profiles', { min_queries: -1 });
    assert.ok(wrong.isError, wrong.text);
  } finally {
    await client.close();
  }
});

test('when served with --query-stacks all, then every run of a repeated statement has its own stack: no place is assumed', async () => {
  const { profile } = await profiled('/n-plus-one');
  const line = t.lineOf('// the N+1 line');
  assert.equal(
    profile.collectors.db!.queries.map((q) => [q.frame?.line, q.frameAssumed]),
    Array.from({ length: 20 }, () => [line, false]),
  );
  const page = (await fetchText(`${t.base}/_profiler/${profile.token}?panel=db`)).body;
  assert.not.ok(page.includes('(assumed)'));
  assert.not.ok(page.includes('--query-stacks'));
});

test('when a query fails or is slower than --slow-query, then it is marked failed (red) or slow in the page and the text', async () => {
  const failing = (await profiled('/pg/failing')).profile;
  const $ = load((await fetchText(`${t.base}/_profiler/${failing.token}?panel=db`)).body);
  assert.is($('main tr.db-failed').length, 1);
  assert.match($('main tr.db-failed .err').text(), /relation "no_such_table" does not exist/);
  assert.match(renderProfileText(failing, 'db', { color: false }), /#1 [\d.]+ ms failed\n/);
  const tagged = (await profiled('/tagged/slow')).profile;
  const db = tagged.collectors.db!;
  assert.is(db.slowMs, 45);
  assert.ok(
    db.queries.every((query) => query.slow),
    'pg_sleep(0.05) and SLEEP(0.05) take 50 ms or more',
  );
  const page = load((await fetchText(`${t.base}/_profiler/${tagged.token}?panel=db`)).body);
  assert.is(page('main tr.db-slow').length, 2);
  assert.match(page('main').text(), /2 slow \(45\.0 ms or more\)/);
});

test('when a page ran queries, then its toolbar shows their count and time, and the N+1 mark when one statement repeated', async () => {
  const plain = load((await profiled('/page/1')).body);
  assert.match(plain('#appkernel-toolbar [data-panel="db"]').text(), /DB 1 query · [\d.]+ ms/);
  assert.not.ok(plain('#appkernel-toolbar [data-panel="db"]').text().includes('N+1'));
  const repeated = load((await profiled('/page/5')).body);
  assert.match(repeated('#appkernel-toolbar [data-panel="db"]').text(), /DB 5 queries · [\d.]+ ms N\+1/);
});

test('when the Performance panel is opened, then each query is a span of the timeline', async () => {
  const { profile } = await profiled('/maria');
  const $ = load((await fetchText(`${t.base}/_profiler/${profile.token}?panel=time`)).body);
  const rows = $('main tr.tl-query');
  assert.is(rows.length, 2);
  assert.ok(rows.first().text().includes('SQL SELECT name FROM users WHERE id = 1'));
});

test("when the profile is read as JSON through the CLI, then `profiles show --panel db --json` prints the panel's data", async () => {
  const { profile } = await profiled('/pg/secret');
  const { runAppInProcess } = await import('../../helpers/cli.js');
  const shown = await runAppInProcess([
    'profiles',
    'show',
    profile.token,
    '--panel',
    'db',
    '--json',
    '--store',
    t.storeDir,
  ]);
  assert.is(shown.code, 0, shown.stderr);
  const data = JSON.parse(shown.stdout);
  assert.is(data.panel, 'db');
  assert.equal(data.data.queries[0].params, ['ann', '[REDACTED]']);
  const text = await runAppInProcess(['profiles', 'show', profile.token, '--panel', 'db', '--store', t.storeDir]);
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, /Runnable: SELECT id FROM users WHERE name = 'ann' AND password = '\[REDACTED\]'/);
  assert.match(text.stdout, /Redacted: \$2\. Values shown as \[REDACTED\]/);
});

test.run();
