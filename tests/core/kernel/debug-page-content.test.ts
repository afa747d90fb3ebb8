import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

const HHMMSS = /\d\d:\d\d:\d\d\.\d{3}/;

const test = suite('the debug error page, as the specification fixes it (demo app)');
let t: TestServer;
test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

test('when GET /robots.txt, then title, heading, request line, message, chain in order, and TypeScript frames', async () => {
  const r = await fetchText(`${t.base}/robots.txt`);
  const message = `No route found for "GET ${t.base}/robots.txt"`;
  const $ = load(r.body);
  assert.is($('title').text(), `${message} (404 Not Found)`);
  assert.is($('h1').first().text().trim(), 'Error 404 Not Found');
  assert.ok($.root().text().includes(`GET ${t.base}/robots.txt`), 'the request method and URL');
  assert.is($('h2').filter((_, h) => $(h).text().trim() === message).length >= 1, true, 'the message is a heading');
  const text = $.root().text();
  const outer = text.indexOf('NotFoundHttpError');
  const inner = text.indexOf('ResourceNotFoundError');
  assert.ok(outer !== -1 && inner !== -1 && outer < inner, 'the chain is outermost first');
  assert.match(text, /router-listener\.ts line \d+/);
  assert.not.match(text, /router-listener\.js/);
});

test('when GET /robots.txt, then the log table shows level with HH:MM:SS.mmm, channel, message and pretty JSON context, with the ERROR record of the uncaught 404', async () => {
  const $ = load((await fetchText(`${t.base}/robots.txt`)).body);
  const table = $('table')
    .filter(
      (_, el) =>
        $(el)
          .find('th')
          .map((__, th) => $(th).text().trim())
          .get()
          .join() === 'Level,Channel,Message',
    )
    .first();
  assert.is(table.length, 1, 'a Level / Channel / Message table');
  const rows = table
    .find('tbody tr')
    .toArray()
    .map((tr) =>
      $(tr)
        .find('td')
        .toArray()
        .map((td) => $(td)),
    );
  assert.ok(rows.length >= 1);
  for (const [level] of rows)
    assert.match(level.text(), new RegExp(`^(DEBUG|INFO|NOTICE|WARNING|ERROR|CRITICAL)${HHMMSS.source}$`));
  const uncaught = rows.find(([, , message]) => message.text().startsWith('Uncaught exception NotFoundHttpError:'));
  assert.ok(uncaught, 'the uncaught exception is logged');
  assert.match(uncaught![0].text(), /^ERROR/);
  assert.is(uncaught![1].text(), 'request');
  assert.match(uncaught![2].text(), /at core\/kernel\/router-listener\.ts line \d+/);
  const context = uncaught![2].find('pre').text();
  assert.ok(context.includes('\n  "exception"'), 'context is pretty-printed JSON');
  assert.is(JSON.parse(context).exception.status, 404);
  assert.not.ok(
    rows.some(([, , message]) => message.text().startsWith('Matched route')),
    'the router logs nothing for a 404',
  );
});

test('when GET /boom, then the app frames have the function, file relative to the root, line and a code excerpt; vendor and internal frames are collapsed', async () => {
  const r = await fetchText(`${t.base}/boom`);
  assert.is(r.status, 500);
  const $ = load(r.body);
  assert.is($('title').text(), 'The stock of "widgets" could not be counted. (500 Internal Server Error)');
  assert.is($('h1').first().text().trim(), 'Error 500 Internal Server Error');
  const first = $('li.frame-app').first();
  assert.is(first.find('.fn').text(), 'checkStock');
  assert.is(first.find('.file').text(), 'core/app/demo-app.ts');
  assert.match(first.text(), /line 10/);
  assert.match(first.find('pre .hl').text(), /throw new Error\(`The stock of/);
  const names = $('li.frame-app .fn')
    .map((_, el) => $(el).text())
    .get();
  assert.equal(names.slice(0, 3), ['checkStock', 'loadInventory', 'boom']);
  assert.ok(
    $('details li.frame-vendor, details li.frame-internal').length > 0,
    'other frames sit in a collapsed <details>',
  );
  assert.is($('details li.frame-app').length, 0);
  assert.is($('li.frame-vendor pre, li.frame-internal pre').length, 0, 'no excerpt outside the app');
});

test('when GET /boom (one exception), then its trace has no [n/total] number, and the log has the CRITICAL record naming the .ts line', async () => {
  const text = load((await fetchText(`${t.base}/boom`)).body)
    .root()
    .text();
  assert.not.match(text, /\[\d+\/\d+\]/);
  assert.match(
    text,
    /Uncaught exception Error: "The stock of "widgets" could not be counted\." at core\/app\/demo-app\.ts line 10/,
  );
  assert.match(text, /CRITICAL\d\d:\d\d:\d\d/);
});

test('when the error listener answers, then the event log says it stopped propagation of kernel.exception', async () => {
  const r = await fetchText(`${t.base}/boom`);
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  const record = profile.collectors.log.records.find(
    (rec: { message: string }) =>
      rec.message ===
      'Listener "ErrorListener::onKernelException" stopped propagation of the event "kernel.exception".',
  );
  assert.ok(record, 'the stop is logged');
  assert.is(record.level, 'DEBUG');
  assert.is(record.channel, 'event');
});

test('when HEAD /robots.txt, then the status and headers of the GET, with an empty body', async () => {
  const get = await fetchText(`${t.base}/robots.txt`);
  const head = await fetchText(`${t.base}/robots.txt`, { method: 'HEAD' });
  assert.is(head.status, 404);
  assert.is(head.body, '');
  for (const name of ['content-type', 'cache-control', 'x-robots-tag'])
    assert.is(head.headers[name], get.headers[name], name);
  assert.match(head.headers['x-debug-token'], /^[0-9a-f]{6}$/);
  // The page names the method ("HEAD" for "GET", a few times) and the toolbar a time: lengths differ by those bytes, not by the toolbar.
  const lengths = [Number(head.headers['content-length']), Buffer.byteLength(get.body)];
  assert.ok(
    Math.abs(lengths[0] - lengths[1]) < 100,
    `HEAD's Content-Length ${lengths[0]}, the GET's body ${lengths[1]} bytes`,
  );
});

test.run();

const prod = suite('non-debug error answers reveal nothing internal');
let p: TestServer;
prod.before(async () => {
  p = await serveForTest({ debug: false });
});
prod.after(async () => {
  await p.stop();
});

prod('when GET /boom without debug, then the Oops page: no message, no file, no debug headers', async () => {
  const r = await fetchText(`${p.base}/boom`);
  assert.is(r.status, 500);
  const text = load(r.body).root().text();
  assert.ok(text.includes('Oops! An Error Occurred'));
  assert.ok(text.includes('The server returned a "500 Internal Server Error".'));
  for (const secret of ['widgets', 'demo-app', 'checkStock']) assert.not.ok(r.body.includes(secret), secret);
  for (const header of ['x-debug-token', 'x-debug-token-link', 'x-robots-tag'])
    assert.is(r.headers[header], undefined, header);
});

prod('when a JSON client gets an error without debug, then a problem document without chain or trace', async () => {
  const r = await fetchText(`${p.base}/boom`, { headers: { accept: 'application/json' } });
  const problem = JSON.parse(r.body);
  assert.equal(problem, {
    type: 'about:blank',
    title: 'Internal Server Error',
    status: 500,
    detail: 'The server returned a "500 Internal Server Error".',
  });
});

prod.run();
