import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest } from '../helpers/serve.js';

// The CLI runs in this process, as the piped bin does; the real bin shows one panel, one diff and one export.
const test = suite("app profiles show (every panel), diff and export, on a stopped server's store");
const inProcess = runAppInProcess;
let dir: string;
let store: string;
let base: string;
let notFound: string;
let hello: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-show-'));
  store = join(dir, 'store');
  const serve = await serveForTest({ store, root: dir });
  base = serve.base;
  try {
    notFound = (await fetchText(`${base}/robots.txt`)).headers['x-debug-token'];
    hello = (await fetchText(`${base}/hello/ann`)).headers['x-debug-token'];
    await fetchProfileJson(base, notFound);
    await fetchProfileJson(base, hello);
  } finally {
    await serve.stop();
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test("when each panel is shown as text, then exit 0, the summary and the panel's heading, no ANSI when piped", async () => {
  const headings: Record<string, RegExp> = {
    request: /^Request\n-+$/m,
    time: /^Performance\n-+$/m,
    exception: /^Exception/m,
    log: /^Logs \(\d+ records?/m,
    events: /^Events\n-+$/m,
    router: /^Routing\n-+$/m,
    security: /^Security\n-+$/m,
  };
  for (const [panel, heading] of Object.entries(headings)) {
    const r = await (panel === 'request' ? runApp : inProcess)([
      'profiles',
      'show',
      notFound,
      '--panel',
      panel,
      '--store',
      store,
    ]);
    assert.is(r.code, 0, `${panel}: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^Token\\s+${notFound}$`, 'm'), panel);
    assert.match(r.stdout, heading, panel);
    assert.not.match(r.stdout, /\x1b\[/, panel);
  }
});

test('when no panel is given, then the exception panel for a 404 and the request panel for a 200', async () => {
  assert.match((await inProcess(['profiles', 'show', notFound, '--store', store])).stdout, /\[2\/2\]/);
  assert.match((await inProcess(['profiles', 'show', hello, '--store', store])).stdout, /^Request\n-+$/m);
});

test('when --html, then the profiler page of that panel, as the server renders it', async () => {
  const r = await inProcess(['profiles', 'show', notFound, '--panel', 'exception', '--html', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const $ = load(r.stdout);
  const text = $.root().text();
  assert.ok(text.includes(`No route found for "GET ${base}/robots.txt"`));
  assert.ok(text.indexOf('[2/2]') !== -1 && text.indexOf('[2/2]') < text.indexOf('[1/2]'));
});

test('when a token is pasted with blanks around it, then it is the same profile', async () => {
  const [plain, pasted] = await Promise.all(
    [hello, ` ${hello}\n`].map((token) => inProcess(['profiles', 'show', token, '--json', '--store', store])),
  );
  assert.is(pasted.code, 0, pasted.stderr);
  assert.is(pasted.stdout, plain.stdout);
});

test('when an unknown panel is asked for, then a usage error naming the choices, exit 2', async () => {
  const r = await inProcess(['profiles', 'show', notFound, '--panel', 'nope', '--store', store]);
  assert.is(r.code, 2);
  assert.match(
    r.stderr,
    /Allowed choices are request \(Request \/ Response\), time \(Performance\), exception \(Exception\), log \(Logs\), events \(Events\), router \(Routing\), security \(Security\), http_client \(HTTP Client\), db \(Database\), dump \(Dumps\), config \(Configuration\)\.$/m,
  );
});

test('when a panel is asked for by its Symfony name (logger, performance, routing), then it is shown, as the profiler page does', async () => {
  for (const [alias, panel] of [
    ['logger', 'log'],
    ['performance', 'time'],
    ['routing', 'router'],
  ]) {
    const byAlias = await inProcess(['profiles', 'show', notFound, '--panel', alias, '--store', store]);
    const byName = await inProcess(['profiles', 'show', notFound, '--panel', panel, '--store', store]);
    assert.is(byAlias.code, 0, `${alias}: ${byAlias.stderr}`);
    assert.is(byAlias.stdout, byName.stdout, alias);
    const json = JSON.parse(
      (await inProcess(['profiles', 'show', notFound, '--panel', alias, '--json', '--store', store])).stdout,
    );
    assert.is(json.panel, panel);
  }
});

test("when --panel X --json, then only that panel's data; times are ISO 8601 strings", async () => {
  const r = await inProcess(['profiles', 'show', hello, '--panel', 'time', '--json', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  assert.equal(Object.keys(json), ['token', 'time', 'panel', 'data']);
  assert.is(json.panel, 'time');
  assert.type(json.data.duration, 'number');
  assert.ok(Array.isArray(json.data.phases));
  assert.not.ok('collectors' in json);
  const log = JSON.parse(
    (await inProcess(['profiles', 'show', hello, '--panel', 'log', '--json', '--store', store])).stdout,
  );
  assert.match(log.data.records[0].time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const whole = JSON.parse((await inProcess(['profiles', 'show', hello, '--json', '--store', store])).stdout);
  assert.match(whole.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.match(whole.collectors.log.records[0].time, /Z$/);
});

test('when --json and --html are both given, then a usage error naming both, exit 2', async () => {
  const r = await inProcess(['profiles', 'show', hello, '--json', '--html', '--store', store]);
  assert.is(r.code, 2);
  assert.is(r.stdout, '');
  assert.match(r.stderr.split('\n')[0]!, /--json.*--html|--html.*--json/);
});

test('when two profiles differ, then diff names status, route and exceptions and exits 1; a profile against itself exits 0', async () => {
  const differ = await runApp(['profiles', 'diff', notFound, hello, '--wide', '--store', store]);
  assert.is(differ.code, 1, differ.stderr);
  assert.match(differ.stdout, /≠\s+status\s+404\s+200/);
  assert.match(differ.stdout, /≠\s+route\s+\(none\)\s+hello/);
  assert.match(differ.stdout, /≠\s+exception classes\s+NotFoundHttpError <- ResourceNotFoundError\s+\(none\)/);
  const json = JSON.parse((await inProcess(['profiles', 'diff', notFound, hello, '--json', '--store', store])).stdout);
  assert.is(json.same, false);
  const same = await inProcess(['profiles', 'diff', hello, hello, '--store', store]);
  assert.is(same.code, 0, same.stdout);
});

test('when exported, then a curl line and a HAR entry of the recorded request, aimed at --target while the server that recorded it is stopped; asking for both is a usage error', async () => {
  const unchecked = await inProcess(['profiles', 'export', hello, '--curl', '--store', store]);
  assert.is(unchecked.code, 1, unchecked.stdout);
  assert.match(
    unchecked.stderr,
    /Cannot aim the export of GET .* at the server that recorded it: .*Is the server running\? \(use --target to choose another\)/,
  );
  const curl = await runApp(['profiles', 'export', hello, '--curl', '--target', base, '--store', store]);
  assert.is(curl.code, 0, curl.stderr);
  assert.match(curl.stdout, new RegExp(`^curl -X GET '${base}/hello/ann'`));
  const har = JSON.parse(
    (await inProcess(['profiles', 'export', hello, '--har', '--target', base, '--store', store])).stdout,
  );
  assert.is(har.log.version, '1.2');
  assert.is(har.log.entries[0].request.url, `${base}/hello/ann`);
  assert.is(har.log.entries[0].response.status, 200);
  const both = await inProcess(['profiles', 'export', hello, '--curl', '--har', '--store', store]);
  assert.is(both.code, 2);
});

test.run();
