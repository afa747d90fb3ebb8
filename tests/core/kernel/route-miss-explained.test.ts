import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';
import { fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ name: 'miss' })
  .get('home', '/', function home() { return 'home'; })
  .get('post', '/posts/{id}', function post() { return 'post'; }, { requirements: { id: '\\\\d+' } })
  .post('contact', '/contact', function contact() { return 'sent'; })
  .get('fail', '/fail', function fail() { throw new Error('failed'); });
`;

const test = suite('404 and 405 explain themselves, in the page and the problem document, in debug mode only');
let dir: string;
let debug: TestServer;
let production: TestServer;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-miss-app-'));
  writeFileSync(join(dir, 'app.config.mjs'), APP);
  debug = await serveForTest({ appFile: join(dir, 'app.config.mjs'), root: dir });
  production = await serveForTest({ appFile: join(dir, 'app.config.mjs'), root: dir, debug: false });
});
test.after(async () => {
  await debug.stop();
  await production.stop();
  rmSync(dir, { recursive: true, force: true });
});

const json = { headers: { accept: 'application/json' } };

test("when GET /posts/abc, then the 404 page names the failing requirement and its value above the exceptions, the spec's messages unchanged", async () => {
  const r = await fetchText(`${debug.base}/posts/abc`);
  assert.is(r.status, 404);
  const $ = load(r.body);
  assert.is($('title').text(), `No route found for "GET ${debug.base}/posts/abc" (404 Not Found)`);
  assert.is($('h1').first().text(), 'Error 404 Not Found');
  const first = $('main > section.routing-miss table.route-miss tbody tr').first();
  assert.equal(
    first
      .find('td')
      .map((_, td) => $(td).text())
      .get(),
    ['post', '/posts/{id}', 'GET', 'Requirement for "{id}" (\\d+) does not match "abc"'],
  );
  assert.ok($('main > section').first().hasClass('routing-miss'));
  assert.ok($.root().text().includes('No routes found for "/posts/abc/"'));
  assert.is($('details[open]').length, 0, 'frames and trace texts folded');
  assert.equal(
    $('section h3')
      .map((_, h) => $(h).text())
      .get()
      .filter((t) => t.startsWith('[')),
    ['[2/2] NotFoundHttpError', '[1/2] ResourceNotFoundError'],
  );
});

test('when GET /post/7, then "Did you mean" links to /posts/7, which answers 200', async () => {
  const $ = load((await fetchText(`${debug.base}/post/7`)).body);
  const link = $('.did-you-mean a');
  assert.is(link.attr('href'), '/posts/7');
  assert.is((await fetchText(`${debug.base}${link.attr('href')}`)).status, 200);
});

test('when GET /contact (POST only), then the 405 page lists it first with the method verdict', async () => {
  const r = await fetchText(`${debug.base}/contact`);
  assert.is(r.status, 405);
  const $ = load(r.body);
  const first = $('table.route-miss tbody tr').first();
  assert.ok(first.hasClass('miss-method'));
  assert.is(first.find('td').last().text(), 'Method "GET" does not match any of the required methods (POST)');
});

test('when a JSON client gets the 404, then the problem document carries the same explanation', async () => {
  const r = await fetchText(`${debug.base}/posts/abc`, json);
  assert.is(r.status, 404);
  assert.match(r.headers['content-type'], /^application\/problem\+json/);
  const body = JSON.parse(r.body);
  assert.is(body.detail, `No route found for "GET ${debug.base}/posts/abc"`);
  assert.is(body.exceptions[1].message, 'No routes found for "/posts/abc/"');
  assert.is(body.routing.method, 'GET');
  assert.is(body.routing.path, '/posts/abc');
  assert.equal(body.routing.closest[0], {
    name: 'post',
    path: '/posts/{id}',
    methods: ['GET'],
    verdict: 'requirement',
    detail: 'Requirement for "{id}" (\\d+) does not match "abc"',
  });
  assert.equal(body.routing.suggestions[0], { name: 'post', path: '/posts/{id}', url: null });
});

test('when a JSON client gets the 405, then the problem document names the method verdict', async () => {
  const r = await fetchText(`${debug.base}/contact`, json);
  assert.is(r.status, 405);
  const body = JSON.parse(r.body);
  assert.is(body.routing.closest[0].verdict, 'method');
  assert.is(body.routing.closest[0].name, 'contact');
});

test('when the error is not a routing miss (500), then neither page nor document explains routes', async () => {
  const page = await fetchText(`${debug.base}/fail`);
  assert.is(page.status, 500);
  assert.is(load(page.body)('.routing-miss').length, 0);
  assert.is(JSON.parse((await fetchText(`${debug.base}/fail`, json)).body).routing, undefined);
});

test('when debug is off, then the 404 page and document reveal no route', async () => {
  const page = await fetchText(`${production.base}/posts/abc`);
  assert.is(page.status, 404);
  const text = load(page.body).root().text();
  assert.ok(text.includes('The server returned a "404 Not Found".'));
  assert.not.match(page.body, /posts\/\{id\}|Requirement|routing-miss|Did you mean|contact/);
  const doc = JSON.parse((await fetchText(`${production.base}/post/7`, json)).body);
  assert.equal(Object.keys(doc).sort(), ['detail', 'status', 'title', 'type']);
  assert.not.match((await fetchText(`${production.base}/contact`)).body, /route-miss|contact|POST/);
});

test.run();
