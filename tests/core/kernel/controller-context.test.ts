import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';
import { fetchProfileJson, fetchText, serveAppSource, type TestServer } from '../../helpers/serve.js';

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('item', '/items/{id<\\\\d+>}', function item({ request, params, log, generate }) {
    log.warning('Stock of item {id} is low: {count} left.', { id: params.id, count: 3 });
    return {
      params,
      method: request.method,
      path: request.path,
      query: request.query,
      referer: request.referer,
      self: generate('item', { id: params.id }),
      next: generate('item', { id: Number(params.id) + 1, page: 2 }),
      absolute: generate('item', { id: '7' }, { absolute: true }),
    };
  })
  .get('async', '/async', async function later() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return '<html><body><p>later</p></body></html>';
  })
  .get('bad_link', '/bad-link', function badLink({ generate }) {
    return { url: generate('nowhere') };
  });
`;

const test = suite(
  'what a controller is given: the request, its parameters, a logger on channel app, URL generation (app file)',
);
let t: TestServer;

test.before(async () => {
  t = await serveAppSource('app.config.ts', APP);
});
test.after(async () => {
  await t.stop();
});

test('when a controller reads its context, then it has the request, the route parameters and URL generation, relative and absolute', async () => {
  const r = await fetchText(`${t.base}/items/42?x=1&x=2`, { headers: { referer: 'http://example.test/list' } });
  assert.is(r.status, 200, r.body.slice(0, 300));
  assert.equal(JSON.parse(r.body), {
    params: { id: '42' },
    method: 'GET',
    path: '/items/42',
    query: { x: ['1', '2'] },
    referer: 'http://example.test/list',
    self: '/items/42',
    next: '/items/43?page=2',
    absolute: `${t.base}/items/7`,
  });
});

test('when a controller logs, then the record is on channel app, its placeholders filled in, its context kept', async () => {
  const r = await fetchText(`${t.base}/items/5`);
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  const own = profile.collectors.log.records.filter((rec: { channel: string }) => rec.channel === 'app');
  assert.is(own.length, 1);
  assert.is(own[0].level, 'WARNING');
  assert.is(own[0].message, 'Stock of item 5 is low: 3 left.');
  assert.equal(own[0].context, { id: '5', count: 3 });
});

test('when a controller is async, then its resolved value is the answer', async () => {
  const r = await fetchText(`${t.base}/async`);
  assert.is(r.status, 200);
  assert.is(load(r.body)('p').text(), 'later');
});

test('when a controller generates a URL for an unknown route, then 500 naming the route, and the server keeps serving', async () => {
  const r = await fetchText(`${t.base}/bad-link`);
  assert.is(r.status, 500);
  assert.ok(
    load(r.body)
      .root()
      .text()
      .includes('Unable to generate a URL for the named route "nowhere" as such route does not exist.'),
  );
  assert.is((await fetchText(`${t.base}/async`)).status, 200);
});

test.run();
