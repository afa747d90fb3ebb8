import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { fetchProfileJson, fetchRawPath, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

const test = suite('profiler pages over HTTP (demo app)');
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

test('when GET /robots.txt, then X-Debug-Token and X-Debug-Token-Link point at its profile', async () => {
  const r = await fetchText(`${t.base}/robots.txt`);
  assert.match(r.headers['x-debug-token'], /^[0-9a-f]{6}$/);
  assert.is(r.headers['x-debug-token-link'], `${t.base}/_profiler/${r.headers['x-debug-token']}`);
});

test('when the exception panel of a 404 is requested, then it shows both classes and messages, frames, [2/2] then [1/2], and a log table', async () => {
  const token = (await fetchText(`${t.base}/robots.txt`)).headers['x-debug-token'];
  await fetchProfileJson(t.base, token);
  const r = await fetchText(`${t.base}/_profiler/${token}?panel=exception&type=request`);
  assert.is(r.status, 200);
  assert.match(r.headers['content-type'], /text\/html/);
  const $ = load(r.body);
  const text = $.root().text();
  for (const expected of [
    'NotFoundHttpError',
    'ResourceNotFoundError',
    `No route found for "GET ${t.base}/robots.txt"`,
    'No routes found for "/robots.txt/"',
    'router-listener.ts',
  ]) {
    assert.ok(text.includes(expected), `panel shows ${expected}`);
  }
  assert.ok(text.indexOf('[2/2]') !== -1 && text.indexOf('[2/2]') < text.indexOf('[1/2]'));
  const headers = $('th')
    .map((_, th) => $(th).text().trim())
    .get();
  assert.ok(headers.includes('Level') && headers.includes('Channel') && headers.includes('Message'));
});

test('when the panel page is itself profiled, then its log holds Matched route "_profiler". with _route, _controller and token', async () => {
  const token = (await fetchText(`${t.base}/robots.txt`)).headers['x-debug-token'];
  await fetchProfileJson(t.base, token);
  const panel = await fetchText(`${t.base}/_profiler/${token}?panel=exception&type=request`);
  const own = await fetchProfileJson(t.base, panel.headers['x-debug-token']);
  const record = own.collectors.log.records.find(
    (r: { message: string }) => r.message === 'Matched route "_profiler".',
  );
  assert.ok(record, 'Matched route "_profiler". is logged');
  assert.equal(record.context.route_parameters, {
    _route: '_profiler',
    _controller: 'ProfilerController::panelAction',
    token,
  });
});

test('when GET /_profiler, then 301, and following redirects ends on Profile Search with the six columns and the robots request', async () => {
  await fetchText(`${t.base}/robots.txt`);
  const first = await fetchText(`${t.base}/_profiler`);
  assert.is(first.status, 301);
  assert.is(first.headers.location, `${t.base}/_profiler/`);
  const second = await fetchText(first.headers.location);
  assert.ok([301, 302].includes(second.status));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const page = await fetchText(new URL(second.headers.location, t.base).href);
  assert.is(page.status, 200);
  const $ = load(page.body);
  assert.ok($('h1, h2').text().includes('Profile Search'));
  assert.match($.root().text(), /\d+ results found/);
  const columns = $('table th')
    .map((_, th) => $(th).text().trim())
    .get();
  assert.equal(columns.slice(0, 6), ['Status', 'IP', 'Method', 'URL', 'Time', 'Token']);
  assert.ok($('td').text().includes(`${t.base}/robots.txt`));
});

test('when bad tokens or panels are asked for, then 404 with the documented messages', async () => {
  const token = (await fetchText(`${t.base}/hello/world`)).headers['x-debug-token'];
  await fetchProfileJson(t.base, token);
  const cases: [string, number, string][] = [
    [`/_profiler/${token}?panel=nope`, 404, `Panel "nope" is not available for token "${token}".`],
    ['/_profiler/abcdef', 404, 'Token "abcdef" not found.'],
    ['/_profiler/ABCDEF', 404, 'Token "ABCDEF" not found.'],
    ['/_profiler/abcdef0', 404, 'Token "abcdef0" not found.'],
    ['/_profiler/..', 404, 'not found'],
    ['/_profiler/%2e%2e', 404, 'not found'],
    ['/_profiler/..%2F..%2Fetc%2Fpasswd', 404, 'not found'],
  ];
  for (const [path, status, message] of cases) {
    const r = await fetchRawPath(t.base, path);
    assert.is(r.status, status, path);
    assert.ok(load(r.body).root().text().includes(message), `${path}: ${message}`);
    assert.not.ok(r.body.includes('root:x:0'), `${path} reads nothing outside the store`);
  }
});

test('when GET /_profiler/<token>.json and /_profiler/latest, then the stored profile', async () => {
  const token = (await fetchText(`${t.base}/hello/json`)).headers['x-debug-token'];
  const profile = await fetchProfileJson(t.base, token);
  assert.is(profile.token, token);
  assert.is(profile.status, 200);
  assert.is(profile.collectors.router.route, 'hello');
  const latest = await fetchText(`${t.base}/_profiler/latest?panel=request`);
  assert.is(latest.status, 200);
});

test('when an HTML page is served, then the toolbar links to its profile; JSON and redirects get none', async () => {
  const page = await fetchText(`${t.base}/`);
  const $ = load(page.body);
  assert.ok($(`a[href*="/_profiler/${page.headers['x-debug-token']}"]`).length > 0);
  const json = await fetchText(`${t.base}/contact`, { method: 'POST', body: '{}' });
  assert.not.ok(json.body.includes('_profiler'));
  const redirect = await fetchText(`${t.base}/hello/world/`);
  assert.not.ok(redirect.body.includes('appkernel-toolbar'));
});

test('when secrets are sent, then none of their values is anywhere in the store folder', async () => {
  const secrets = [
    's3cr3t-bearer-value',
    'c00kie-session-value',
    'hunter2-password-value',
    'api-key-value-xyz',
    'form-secret-value',
  ];
  const r = await fetchText(`${t.base}/contact?password=${secrets[2]}&page=1`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secrets[0]}`,
      cookie: `session=${secrets[1]}`,
      'x-api-key': secrets[3],
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `name=ann&client_secret=${secrets[4]}`,
  });
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  assert.ok(profile.collectors.request.redacted.length >= 4, 'the profile says what was redacted');
  await t.server.storage!.flush();
  for (const file of walk(t.storeDir)) {
    const raw = readFileSync(file);
    for (const secret of secrets) assert.not.ok(raw.toString('latin1').includes(secret), `${secret} found in ${file}`);
  }
  const storage = t.server.storage!;
  for (const summary of await storage.search({ limit: 100_000 })) {
    const stored = JSON.stringify(await storage.read(summary.token));
    for (const secret of secrets)
      assert.not.ok(stored.includes(secret), `${secret} stored in profile ${summary.token}`);
  }
  const page = await fetchText(`${t.base}/_profiler/${profile.token}?panel=request`);
  for (const secret of secrets) assert.not.ok(page.body.includes(secret), `${secret} in the request panel`);
});

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

test.run();
