import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

interface Rec {
  level: string;
  channel: string;
  message: string;
  context: Record<string, any>;
}

const test = suite(
  'the router listener: attributes and log on a match, the specified 404 and 405 errors on a failure (demo app)',
);
let t: TestServer;
test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

async function profileOf(path: string, init: Parameters<typeof fetchText>[1] = {}) {
  const r = await fetchText(`${t.base}${path}`, init);
  return { r, profile: await fetchProfileJson(t.base, r.headers['x-debug-token']) };
}

test('when a route matches, then _route, _controller and the parameters are kept on the request', async () => {
  const { profile } = await profileOf('/hello/J%C3%BCrgen');
  assert.is(profile.collectors.request.route, 'hello');
  assert.is(profile.collectors.request.controller, 'hello');
  assert.equal(profile.collectors.request.routeParams, { name: 'Jürgen' });
  assert.is(profile.collectors.router.route, 'hello');
});

test("when a route matches a URL with a query, then the INFO record's request_uri is the absolute URL with its query", async () => {
  const { profile } = await profileOf('/hello/world?page=2&q=a%20b');
  const records: Rec[] = profile.collectors.log.records;
  const matched = records.filter((rec) => rec.message === 'Matched route "hello".');
  assert.is(matched.length, 1);
  assert.is(matched[0].level, 'INFO');
  assert.is(matched[0].channel, 'request');
  assert.equal(matched[0].context, {
    route: 'hello',
    route_parameters: { _route: 'hello', _controller: 'hello', name: 'world' },
    request_uri: `${t.base}/hello/world?page=2&q=a%20b`,
    method: 'GET',
  });
});

test('when the path matches no route, then the 404 error has empty headers and the resource-not-found failure as its cause', async () => {
  const { r, profile } = await profileOf('/robots.txt?x=1');
  assert.is(r.status, 404);
  const chain = profile.collectors.exception.chain;
  assert.equal(
    chain.map((e: any) => [e.class, e.message]),
    [
      ['NotFoundHttpError', `No route found for "GET ${t.base}/robots.txt"`],
      ['ResourceNotFoundError', 'No routes found for "/robots.txt/"'],
    ],
  );
  assert.is(chain[0].status, 404);
  assert.equal(chain[0].headers, {});
});

test('when the path matches no route, then the routing failure shows the frames the 404 error is thrown from, the router listener on top', async () => {
  const { profile } = await profileOf('/nothing-here');
  const [outer, cause] = profile.collectors.exception.chain;
  const frames = (e: any) => e.frames.map((f: any) => `${f.function} ${f.file}:${f.line}`);
  assert.ok(outer.frames.length > 0);
  assert.equal(frames(cause), frames(outer));
  assert.match(outer.frames[0].file, /core\/kernel\/router-listener\.ts$/);
});

test('when no Referer is sent, then the 405 message is exact, with no suffix', async () => {
  const r = await fetchText(`${t.base}/contact`);
  assert.is(r.status, 405);
  assert.is(r.headers.allow, 'POST');
  const message = `No route found for "GET ${t.base}/contact": Method Not Allowed (Allow: POST)`;
  const $ = load(r.body);
  assert.is($('title').text(), `${message} (405 Method Not Allowed)`);
  assert.is($('h1').first().text().trim(), 'Error 405 Method Not Allowed');
  assert.not.ok($.root().text().includes('(from "'));
});

test('when the method is not allowed, then the 405 error carries Allow and the method-not-allowed failure as its cause, and the router logs nothing', async () => {
  const { profile } = await profileOf('/contact', { method: 'PUT', headers: { referer: 'http://example.test/form' } });
  const chain = profile.collectors.exception.chain;
  assert.is(chain.length, 2);
  assert.is(chain[0].class, 'MethodNotAllowedHttpError');
  assert.is(
    chain[0].message,
    `No route found for "PUT ${t.base}/contact": Method Not Allowed (Allow: POST) (from "http://example.test/form")`,
  );
  assert.is(chain[0].status, 405);
  assert.equal(chain[0].headers, { Allow: 'POST' });
  assert.is(chain[1].class, 'MethodNotAllowedError');
  const records: Rec[] = profile.collectors.log.records;
  assert.not.ok(
    records.some((rec) => rec.message.startsWith('Matched route')),
    'nothing logged by the router for a 405',
  );
  const uncaught = records.find((rec) => rec.message.startsWith('Uncaught exception MethodNotAllowedHttpError'));
  assert.is(uncaught?.level, 'ERROR');
  assert.is(uncaught?.channel, 'request');
});

test('when the URL keeps percent-encoding, then the 404 message shows the path as sent and without the query', async () => {
  const r = await fetchText(`${t.base}/caf%C3%A9/a%20b?q=1`);
  assert.is(r.status, 404);
  const text = load(r.body).root().text();
  assert.ok(text.includes(`No route found for "GET ${t.base}/caf%C3%A9/a%20b"`), text.slice(0, 400));
  assert.ok(text.includes('No routes found for "/caf%C3%A9/a%20b/"'));
});

test('when HEAD asks a path that only matches with the slash toggled, then 301 to the canonical absolute URL, query kept', async () => {
  const r = await fetchText(`${t.base}/hello/world/?a=1`, { method: 'HEAD' });
  assert.is(r.status, 301);
  assert.is(r.headers.location, `${t.base}/hello/world?a=1`);
  assert.is(r.body, '');
});

test.run();
