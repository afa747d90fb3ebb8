import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runCliInProcess, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest } from '../helpers/serve.js';

// Required: `app profiles list [--status <404|4xx>] [--method <m>] [--ip <ip>] [--url <substring>] [--since <time>]
// [--until <time>] [--limit 20] [--json] [--store <dir>]`, newest first, a table like the search page, read from
// the store with no server running; `app profiles show latest`. serve-and-profiles.test.ts covers --json and
// --status 4xx; here every other filter, the text table and `latest`, on a stopped server's store.

interface Row {
  token: string;
  status: number;
  ip: string;
  method: string;
  url: string;
  time: number;
  duration: number;
}

const test = suite('app profiles list: every filter, the limit, the text table, and show latest (no server)');
let dir: string;
let store: string;
let base: string;
/** path -> token, in request order */
const first: Record<string, string> = {};
const second: Record<string, string> = {};
let boundary: string;

async function request(path: string, method = 'GET'): Promise<string> {
  const r = await fetchText(`${base}${path}`, {
    method,
    body: method === 'POST' ? '{}' : undefined,
    headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
  });
  const token = r.headers['x-debug-token'];
  await fetchProfileJson(base, token);
  return token;
}

/** The filters' JSON, from the CLI run in this process; time zones and usage errors go through the real bin. */
async function list(...args: string[]): Promise<Row[]> {
  const r = await runCliInProcess(['profiles', 'list', '--json', '--limit', '1000', ...args, '--store', store]);
  assert.is(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Row[];
}

/** the app's own requests: the JSON endpoint polls of fetchProfileJson are profiled too */
const own = (rows: Row[]) => rows.filter((row) => !row.url.includes('/_profiler/'));

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-list-filters-'));
  store = join(dir, 'store');
  const serve = await serveForTest({ store: store, root: dir });
  base = serve.base;
  try {
    first['/hello/early'] = await request('/hello/early');
    first['/robots.txt'] = await request('/robots.txt');
    await new Promise((resolve) => setTimeout(resolve, 30));
    boundary = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 30));
    second['POST /contact'] = await request('/contact', 'POST');
    second['GET /contact'] = await request('/contact');
    second['/hello/late'] = await request('/hello/late');
  } finally {
    await serve.stop();
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('when listed with --json, then each row holds exactly the list fields', async () => {
  const rows = await list();
  assert.ok(rows.length >= 5);
  for (const row of rows)
    assert.equal(Object.keys(row).sort(), ['duration', 'ip', 'method', 'route', 'status', 'time', 'token', 'url']);
});

test('when --status 404 (exact) or --status 405, then only that status', async () => {
  assert.equal(
    (await list('--status', '404')).map((row) => row.token),
    [first['/robots.txt']],
  );
  assert.equal(
    (await list('--status', '405')).map((row) => row.token),
    [second['GET /contact']],
  );
  assert.ok((await list('--status', '2xx')).every((row) => row.status >= 200 && row.status < 300));
});

test('when --method post (any case), then only POST rows', async () => {
  assert.equal(
    (await list('--method', 'post')).map((row) => row.token),
    [second['POST /contact']],
  );
});

test('when --ip, then rows of that client only; another IP lists nothing', async () => {
  const rows = await list('--ip', '127.0.0.1');
  assert.ok(rows.length >= 5 && rows.every((row) => row.ip === '127.0.0.1'));
  assert.equal(await list('--ip', '10.9.9.9'), []);
});

test('when --url is a substring, then only URLs containing it, newest first', async () => {
  assert.equal(
    (await list('--url', '/hello/')).map((row) => row.token),
    [second['/hello/late'], first['/hello/early']],
  );
});

test('when --since or --until is an ISO time, then only rows on that side of it', async () => {
  const since = own(await list('--since', boundary));
  assert.equal(
    since.map((row) => row.token),
    [second['/hello/late'], second['GET /contact'], second['POST /contact']],
  );
  const until = own(await list('--until', boundary));
  assert.equal(
    until.map((row) => row.token),
    [first['/robots.txt'], first['/hello/early']],
  );
  assert.equal(own(await list('--since', boundary, '--until', boundary)), []);
});

test('when --since is a duration ago (1h), then every recent row; a future --since lists nothing', async () => {
  assert.is(own(await list('--since', '1h')).length, 5);
  assert.equal(await list('--since', new Date(Date.now() + 3_600_000).toISOString()), []);
});

test("when --since is written as the list shows times (UTC, no zone), then it means UTC whatever the machine's time zone, as on the search page", async () => {
  // Two minutes from now, in UTC, "YYYY-MM-DD HH:MM:SS": no profile is that recent.
  const future = new Date(Date.now() + 120_000).toISOString().slice(0, 19).replace('T', ' ');
  for (const tz of ['UTC', 'Asia/Tokyo', 'America/New_York']) {
    const r = await runApp(['profiles', 'list', '--json', '--since', future, '--store', store], { env: { TZ: tz } });
    assert.is(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout), [], `TZ=${tz}: --since "${future}" read as local time`);
  }
});

test('when --limit 2, then the two newest rows', async () => {
  const all = await list();
  const r = await runAppInProcess(['profiles', 'list', '--json', '--limit', '2', '--store', store]);
  assert.equal(
    (JSON.parse(r.stdout) as Row[]).map((row) => row.token),
    all.slice(0, 2).map((row) => row.token),
  );
});

test('when listed as text, then the count, the columns of the search page and one line per row with status, time, duration and token', async () => {
  const r = await runAppInProcess(['profiles', 'list', '--url', '/hello/', '--wide', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.match(r.stdout, /^2 results found$/m);
  const header = lines.find((line) => /^Status\s/.test(line));
  assert.ok(header, r.stdout);
  for (const column of ['Status', 'IP', 'Method', 'URL', 'Time', 'Duration', 'Route', 'Token'])
    assert.ok(header!.includes(column), column);
  const late = lines.find((line) => line.includes(second['/hello/late']))!;
  assert.match(
    late,
    new RegExp(
      `^200\\s+127\\.0\\.0\\.1\\s+GET\\s+${base}/hello/late\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d.*\\d ms\\s+(\\S+\\s+)?${second['/hello/late']}$`,
    ),
  );
  assert.ok(lines.indexOf(late) < lines.findIndex((line) => line.includes(first['/hello/early'])), 'newest first');
  assert.not.match(r.stdout, /\x1b\[/);
});

test('when show latest, then the newest stored profile', async () => {
  const newest = (await list())[0];
  const r = await runAppInProcess(['profiles', 'show', 'latest', '--json', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout).token, newest.token);
});

test("when listed, then the profiler's own requests (the JSON polls above) are left out; --include-profiler lists them too", async () => {
  const shown = await list();
  assert.is(shown.length, 5, JSON.stringify(shown.map((row) => row.url)));
  assert.ok(shown.every((row) => !row.url.includes('/_profiler')));
  const all = await list('--include-profiler');
  assert.ok(
    all.some((row) => row.url.includes('/_profiler/')),
    "the profiler's own requests are still recorded",
  );
  assert.equal(own(all), shown);
});

test('when --limit is below the number matched, then the text says "<shown> of <total> results found"', async () => {
  const r = await runAppInProcess(['profiles', 'list', '--limit', '3', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /^3 of 5 results found$/m);
  const wide = await runAppInProcess(['profiles', 'list', '--limit', '3', '--include-profiler', '--store', store]);
  const total = (await list('--include-profiler')).length;
  assert.match(wide.stdout, new RegExp(`^3 of ${total} results found$`, 'm'));
});

test('when show latest, then not a profiler request; with --include-profiler, the newest of all', async () => {
  const r = await runAppInProcess(['profiles', 'show', 'latest', '--json', '--store', store]);
  assert.not.ok(JSON.parse(r.stdout).url.includes('/_profiler'));
  const all = await list('--include-profiler');
  const any = await runAppInProcess(['profiles', 'show', 'latest', '--json', '--include-profiler', '--store', store]);
  assert.is(any.code, 0, any.stderr);
  assert.is(JSON.parse(any.stdout).token, all[0].token);
  assert.ok(all[0].url.includes('/_profiler/'), all[0].url);
});

test('when a time is not a time, then a one-line usage error, exit 2', async () => {
  const r = await runApp(['profiles', 'list', '--since', 'yesterday-ish', '--store', store]);
  assert.is(r.code, 2);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.is(r.stdout, '');
});

test.run();
