import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { BUILT_IN_PANEL_NAMES } from '../../panels/registry.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

const test = suite(
  'the profiler stays out of its own way: its requests recorded but hidden, no toolbar, its own 404 pages',
);
let t: TestServer;
let appToken: string;

test.before(async () => {
  t = await serveForTest();
  appToken = (await fetchText(`${t.base}/hello/world`)).headers['x-debug-token'];
  await fetchProfileJson(t.base, appToken);
  // a few profiler pages, each profiled
  for (const path of [
    '/_profiler/search?limit=10',
    `/_profiler/${appToken}?panel=log`,
    `/_profiler/${appToken}?panel=request`,
  ]) {
    assert.is((await fetchText(`${t.base}${path}`)).status, 200, path);
  }
});
test.after(async () => {
  await t.stop();
});

const rowUrls = (html: string): string[] => {
  const $ = load(html);
  return $('tbody tr')
    .map((_, tr) => $(tr).find('td').eq(3).text())
    .get();
};

test('when the search page is opened, then no /_profiler row by default; the toggle shows them, and they were recorded', async () => {
  const page = await fetchText(`${t.base}/_profiler/search?limit=100`);
  const urls = rowUrls(page.body);
  assert.ok(urls.includes(`${t.base}/hello/world`), urls.join('\n'));
  assert.ok(
    urls.every((url) => !url.startsWith(`${t.base}/_profiler`)),
    urls.join('\n'),
  );
  const $ = load(page.body);
  const toggle = $('.profiler-toggle a').attr('href')!;
  assert.is(toggle, '/_profiler/search?limit=100&profiler=1');
  const all = rowUrls((await fetchText(`${t.base}${toggle}`)).body);
  assert.ok(
    all.some((url) => url.startsWith(`${t.base}/_profiler/${appToken}?panel=log`)),
    all.join('\n'),
  );
});

test("when Latest is opened, then it is the newest request that was not the profiler's own, also as JSON", async () => {
  const latest = await fetchText(`${t.base}/_profiler/latest?panel=request`);
  assert.is(latest.status, 200);
  assert.is(load(latest.body)('header.summary h1').text(), `${t.base}/hello/world`);
  const json = JSON.parse((await fetchText(`${t.base}/_profiler/latest.json`)).body);
  assert.is(json.token, appToken);
});

test('when a profiler page is served, then it carries no toolbar; an app page still does', async () => {
  for (const path of ['/_profiler/search?limit=10', `/_profiler/${appToken}?panel=request`, '/_profiler/abcdef']) {
    const r = await fetchText(`${t.base}${path}`);
    assert.is(load(r.body)('#appkernel-toolbar').length, 0, path);
    assert.match(r.headers['x-debug-token'], /^[0-9a-f]{6}$/, `${path} is still profiled`);
  }
  assert.is(load((await fetchText(`${t.base}/`)).body)('#appkernel-toolbar').length, 1);
});

test("when a token is unknown, then a 404 in the profiler's layout with the message and a link back to the search, no debug exception page", async () => {
  const r = await fetchText(`${t.base}/_profiler/abcdef`);
  assert.is(r.status, 404);
  const $ = load(r.body);
  assert.is($('nav.top').length, 1);
  assert.is($('main.not-found .msg').text(), 'Token "abcdef" not found.');
  assert.is($('main.not-found a[href="/_profiler/search?limit=10"]').length, 1);
  assert.not.ok(
    r.body.includes('Stack Trace') || r.body.includes('router-listener') || r.body.includes('[1/1]'),
    'no trace',
  );
  assert.match(
    r.headers['content-security-policy'],
    /script-src 'self'(;|$)/,
    "no inline script: only the profiler's own script file",
  );
  // the miss is still recorded as the NotFoundHttpError it was
  const own = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  assert.is(own.collectors.exception.chain[0].class, 'NotFoundHttpError');
});

test("when a panel is unknown, then a 404 in the profiler's layout listing the profile's panels", async () => {
  const r = await fetchText(`${t.base}/_profiler/${appToken}?panel=nope`);
  assert.is(r.status, 404);
  const $ = load(r.body);
  assert.is($('main.not-found .msg').text(), `Panel "nope" is not available for token "${appToken}".`);
  assert.equal(
    $('ul.panels a')
      .map((_, a) => $(a).attr('href'))
      .get(),
    BUILT_IN_PANEL_NAMES.map((p) => `/_profiler/${appToken}?panel=${p}&type=request`),
  );
});

test("when an unknown token's JSON is asked for, then a JSON 404 whatever the client accepts", async () => {
  for (const accept of ['text/html', 'application/json', '*/*']) {
    const r = await fetchText(`${t.base}/_profiler/abcdef.json`, { headers: { accept } });
    assert.is(r.status, 404, accept);
    assert.match(r.headers['content-type'], /^application\/problem\+json/, accept);
    const body = JSON.parse(r.body);
    assert.is(body.status, 404);
    assert.is(body.detail, 'Token "abcdef" not found.', accept);
  }
});

test.run();
