import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

const test = suite('debug error pages over HTTP (demo app)');
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

test('when GET /robots.txt, then 404 with both messages, [2/2] before [1/2] and a log table', async () => {
  const r = await fetchText(`${t.base}/robots.txt`);
  assert.is(r.status, 404);
  const $ = load(r.body);
  const text = $.root().text();
  assert.ok(text.includes('Error 404 Not Found'));
  assert.ok(text.includes(`No route found for "GET ${t.base}/robots.txt"`));
  assert.ok(text.includes('No routes found for "/robots.txt/"'));
  const two = text.indexOf('[2/2]');
  const one = text.indexOf('[1/2]');
  assert.ok(two !== -1 && one !== -1 && two < one, '[2/2] comes before [1/2]');
  const headers = $('table th')
    .map((_, th) => $(th).text().trim())
    .get();
  for (const column of ['Level', 'Channel', 'Message'])
    assert.ok(headers.includes(column), `log table column ${column}`);
  assert.is(r.headers['cache-control'], 'no-cache, private');
  assert.is(r.headers['x-robots-tag'], 'noindex');
  assert.match(r.headers['x-debug-token'], /^[0-9a-f]{6}$/);
});

test('when a Referer is sent, then the 404 message ends with (from "<referer>")', async () => {
  const r = await fetchText(`${t.base}/robots.txt`, { headers: { referer: 'http://example.test/page' } });
  assert.ok(
    load(r.body)
      .root()
      .text()
      .includes(`No route found for "GET ${t.base}/robots.txt" (from "http://example.test/page")`),
  );
});

test('when POST /robots.txt, then the cause names the path unchanged', async () => {
  const r = await fetchText(`${t.base}/robots.txt`, { method: 'POST' });
  assert.is(r.status, 404);
  const text = load(r.body).root().text();
  assert.ok(text.includes('No routes found for "/robots.txt"'));
  assert.not.ok(text.includes('No routes found for "/robots.txt/"'));
});

test('when HEAD /robots.txt, then 404 with an empty body', async () => {
  const r = await fetchText(`${t.base}/robots.txt`, { method: 'HEAD' });
  assert.is(r.status, 404);
  assert.is(r.body, '');
});

test('when GET /contact (POST only), then 405 with Allow: POST and the exact message, referer suffix included', async () => {
  const r = await fetchText(`${t.base}/contact`, { headers: { referer: 'http://example.test/form' } });
  assert.is(r.status, 405);
  assert.is(r.headers.allow, 'POST');
  assert.ok(
    load(r.body)
      .root()
      .text()
      .includes(
        `No route found for "GET ${t.base}/contact": Method Not Allowed (Allow: POST) (from "http://example.test/form")`,
      ),
  );
});

test('when GET /hello/world/, then 301 to the canonical absolute URL', async () => {
  const r = await fetchText(`${t.base}/hello/world/?a=1`);
  assert.is(r.status, 301);
  assert.is(r.headers.location, `${t.base}/hello/world?a=1`);
});

test('when GET /boom, then 500 and the trace names the TypeScript file and line of the throw', async () => {
  const r = await fetchText(`${t.base}/boom`);
  assert.is(r.status, 500);
  const text = load(r.body).root().text();
  assert.match(text, /demo-app\.ts/);
  assert.match(text, /checkStock/);
  assert.not.match(text, /demo-app\.js/);
});

test('when GET /hello/world, then the log has Matched route "hello". before the kernel.request, kernel.controller, kernel.controller_arguments notifications', async () => {
  const r = await fetchText(`${t.base}/hello/world`);
  assert.is(r.status, 200);
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  const messages: string[] = profile.collectors.log.records.map((rec: { message: string }) => rec.message);
  const matched = messages.indexOf('Matched route "hello".');
  const request = messages.findIndex((m) => m.startsWith('Notified event "kernel.request"'));
  const controller = messages.findIndex((m) => m.startsWith('Notified event "kernel.controller" '));
  const args = messages.findIndex((m) => m.startsWith('Notified event "kernel.controller_arguments"'));
  assert.ok(matched !== -1 && matched < request && request < controller && controller < args, messages.join('\n'));
  const record = profile.collectors.log.records[matched];
  assert.is(record.level, 'INFO');
  assert.is(record.channel, 'request');
  assert.equal(record.context.route_parameters, { _route: 'hello', _controller: 'hello', name: 'world' });
  assert.is(record.context.request_uri, `${t.base}/hello/world`);
  assert.is(record.context.method, 'GET');
});

test('when a <script> payload is in the path and the Referer, then the page escapes it', async () => {
  const payload = '<script>alert(1)</script>';
  const r = await fetchText(`${t.base}/x${encodeURIComponent(payload)}`, {
    headers: { referer: `http://e.test/${payload}<img src=x onerror=alert(2)>` },
  });
  assert.is(r.status, 404);
  const $ = load(r.body);
  assert.is($('script').filter((_, s) => ($(s).html() ?? '').includes('alert')).length, 0);
  assert.is($('img[onerror]').length, 0);
  assert.ok($.root().text().includes(payload));
});

test('when the client prefers JSON, then a problem document with the chain', async () => {
  const r = await fetchText(`${t.base}/robots.txt`, { headers: { accept: 'application/json' } });
  assert.is(r.status, 404);
  assert.is(r.headers['content-type'], 'application/problem+json');
  const problem = JSON.parse(r.body);
  assert.is(problem.status, 404);
  assert.is(problem.detail, `No route found for "GET ${t.base}/robots.txt"`);
  assert.is(problem.exceptions[1].message, 'No routes found for "/robots.txt/"');
});

test.run();

const prod = suite('production error pages (--no-debug)');
let p: TestServer;
prod.before(async () => {
  p = await serveForTest({ debug: false });
});
prod.after(async () => {
  await p.stop();
});

prod('when GET /robots.txt without debug, then the Oops page and no debug headers', async () => {
  const r = await fetchText(`${p.base}/robots.txt`);
  assert.is(r.status, 404);
  const text = load(r.body).root().text();
  assert.ok(text.includes('Oops! An Error Occurred'));
  assert.ok(text.includes('The server returned a "404 Not Found".'));
  assert.not.ok(text.includes('robots.txt'));
  assert.is(r.headers['x-debug-token'], undefined);
  assert.is(r.headers['x-debug-token-link'], undefined);
});

prod('when GET /_profiler without debug, then a plain 404', async () => {
  const r = await fetchText(`${p.base}/_profiler`);
  assert.is(r.status, 404);
  assert.is(r.headers['x-debug-token'], undefined);
});

prod.run();
