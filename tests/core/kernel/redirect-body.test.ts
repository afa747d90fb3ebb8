import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

const test = suite('a trailing-slash redirect (demo app)');
let t: TestServer;
test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

test('when GET /hello/world/, then 301 to the absolute canonical URL and a small HTML body that links to it', async () => {
  const r = await fetchText(`${t.base}/hello/world/`);
  const target = `${t.base}/hello/world`;
  assert.is(r.status, 301);
  assert.is(r.headers.location, target);
  assert.match(r.headers['content-type'], /^text\/html/);
  const $ = load(r.body);
  assert.is($(`a[href="${target}"]`).length, 1, r.body);
  assert.ok($('body').text().includes(`Redirecting to ${target}`));
  assert.is($('#appkernel-toolbar').length, 0, 'redirects get no toolbar');
});

test('when HEAD /hello/world/, then the same 301 and Location, with an empty body', async () => {
  const r = await fetchText(`${t.base}/hello/world/`, { method: 'HEAD' });
  assert.is(r.status, 301);
  assert.is(r.headers.location, `${t.base}/hello/world`);
  assert.is(r.body, '');
});

test('when POST /hello/world/, then no redirect: the routing failure names the path unchanged', async () => {
  const r = await fetchText(`${t.base}/hello/world/`, { method: 'POST' });
  assert.is(r.status, 404);
  assert.ok(load(r.body).root().text().includes('No routes found for "/hello/world/"'));
});

test.run();
