import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDemoApp } from '../../../core/app/demo-app.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

const table = suite("the embedded demo app's route table");

table(
  'when the demo app is made, then it has GET /, GET /hello/{name}, POST /contact only and /boom for any method, and nothing for /robots.txt',
  () => {
    const routes = createDemoApp()
      .routes.all()
      .map((r) => [r.name, r.path, [...r.methods]]);
    assert.equal(routes, [
      ['home', '/', ['GET']],
      ['hello', '/hello/{name}', ['GET']],
      ['contact', '/contact', ['POST']],
      ['boom', '/boom', []],
    ]);
  },
);

table.run();

const test = suite('the embedded demo app over HTTP');
let t: TestServer;
test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

test('when GET /, then an HTML page with a <body>', async () => {
  const r = await fetchText(`${t.base}/`);
  assert.is(r.status, 200);
  assert.match(r.headers['content-type'], /^text\/html/);
  assert.is(load(r.body)('body').length, 1);
  assert.match(r.body, /<body>/);
});

test('when GET /hello/{name}, then a greeting, and the controller logs on channel app with the placeholder filled in', async () => {
  const r = await fetchText(`${t.base}/hello/world`);
  assert.is(r.status, 200);
  assert.is(load(r.body)('h1').text(), 'Hello world!');
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  const own = profile.collectors.log.records.filter((rec: { channel: string }) => rec.channel === 'app');
  assert.equal(
    own.map((rec: { level: string; message: string; context: unknown }) => [rec.level, rec.message, rec.context]),
    [['INFO', 'Saying hello to world.', { name: 'world' }]],
  );
});

test('when /contact is asked with any method but POST, then 405 with Allow: POST', async () => {
  assert.is((await fetchText(`${t.base}/contact`, { method: 'POST', body: 'x' })).status, 200);
  for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH']) {
    const r = await fetchText(`${t.base}/contact`, { method });
    assert.is(r.status, 405, method);
    assert.is(r.headers.allow, 'POST', method);
  }
});

test('when /boom is asked with any method, then 500 from the nested throw, never a 405', async () => {
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const r = await fetchText(`${t.base}/boom`, { method, headers: { accept: 'application/json' } });
    assert.is(r.status, 500, method);
    const problem = JSON.parse(r.body);
    assert.is(problem.detail, 'The stock of "widgets" could not be counted.', method);
    const appFrames = problem.exceptions[0].trace.filter(
      (f: { file: string | null }) => f.file === 'core/app/demo-app.ts',
    );
    assert.ok(appFrames.length >= 3, `${method}: several app frames (${JSON.stringify(appFrames)})`);
    assert.equal(
      appFrames.slice(0, 3).map((f: { function: string }) => f.function),
      ['checkStock', 'loadInventory', 'boom'],
    );
  }
});

test('when /robots.txt is asked with any method, then 404', async () => {
  for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'])
    assert.is((await fetchText(`${t.base}/robots.txt`, { method })).status, 404, method);
});

test.run();
