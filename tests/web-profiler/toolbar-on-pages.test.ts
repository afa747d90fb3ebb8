import { join } from 'node:path';
import { load, type CheerioAPI } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { fetchText, serveAppSource, type TestServer } from '../helpers/serve.js';

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ name: 'toolbar' })
  .get('page', '/page', function page({ log }) {
    log.debug('one');
    log.info('two');
    log.warning('three');
    log.error('four');
    return '<!DOCTYPE html><html><body><p>a page</p></body></html>';
  })
  .get('admin', '/admin', () => '<html><body>admin</body></html>')
  .guard({ name: 'admin', path: '^/admin', check: (req) => req.header('authorization') === 'Bearer dev' ? true : { status: 401, message: 'Sign in.' } });
`;

const test = suite('the toolbar on real pages: what the kernel knew at kernel.response');
let t: TestServer;

test.before(async () => {
  t = await serveAppSource('app.config.mjs', APP);
});
test.after(async () => {
  await t.stop();
});

const section = ($: CheerioAPI, panel: string) => $(`#appkernel-toolbar .ak-s[data-panel=${panel}]`);
const cells = ($: CheerioAPI, panel: string) =>
  section($, panel)
    .find('.ak-det td')
    .map((_, el) => $(el).text())
    .get();

test('when a controller logs at four levels, then the log section counts each level, with the route and controller', async () => {
  const r = await fetchText(`${t.base}/page`);
  const $ = load(r.body);
  assert.is(section($, 'request').find('.ak-pill').first().text(), '200');
  assert.ok(section($, 'request').text().includes('@page'));
  const log = section($, 'log');
  const levels = log
    .find('.ak-det th')
    .map((_, el) => $(el).text())
    .get();
  for (const level of ['DEBUG', 'INFO', 'WARNING', 'ERROR']) assert.ok(levels.includes(level), level);
  assert.is(
    log
      .find('.ak-det tr')
      .filter((_, tr) => $(tr).find('th').text() === 'ERROR')
      .find('td')
      .text(),
    '1',
  );
  assert.is(
    log
      .children('.ak-pill')
      .map((_, el) => $(el).text())
      .get()
      .join('|'),
    '1 error|1 warning',
  );
  assert.is(section($, 'exception').length, 0);
  assert.is(section($, 'security').children('.ak-pill').text(), 'none');
  assert.ok($(`#appkernel-toolbar a[href="/_profiler/${r.headers['x-debug-token']}"]`).length > 0);
});

test('when the firewall grants access, then the security section says allowed, by rule admin', async () => {
  const $ = load((await fetchText(`${t.base}/admin`, { headers: { authorization: 'Bearer dev' } })).body);
  assert.is(section($, 'security').children('.ak-pill').text(), 'allowed');
  assert.ok(cells($, 'security').includes('admin'));
});

test("when the firewall denies, then the error page's toolbar shows the 401, the decision and the exception class", async () => {
  const r = await fetchText(`${t.base}/admin`);
  assert.is(r.status, 401);
  const $ = load(r.body);
  assert.is(section($, 'request').find('.ak-pill').first().text(), '401');
  assert.is(section($, 'security').children('.ak-pill').text(), 'denied');
  assert.ok(section($, 'exception').children('.ak-pill').text().length > 0, 'an exception class');
  assert.not.ok(
    section($, 'security').text().includes('Sign in.'),
    "the rule's message (unredacted on this thread) is not shown",
  );
});

test("when a 404 is answered, then the toolbar names the exception chain's classes", async () => {
  const $ = load((await fetchText(`${t.base}/nowhere`)).body);
  const classes = cells($, 'exception');
  assert.ok(classes.length >= 2, classes.join(', '));
  assert.ok(
    classes.some((name) => /NotFound/.test(name)),
    classes.join(', '),
  );
});

test('when profiler pages are served, then they carry a debug token but no toolbar', async () => {
  const token = (await fetchText(`${t.base}/page`)).headers['x-debug-token'];
  for (const path of ['/_profiler/search?limit=10', `/_profiler/${token}?panel=log`, '/_profiler/abcdef']) {
    const r = await fetchText(`${t.base}${path}`);
    assert.match(r.headers['content-type'], /^text\/html/, path);
    assert.ok(r.headers['x-debug-token'], `${path} is still profiled`);
    assert.is(load(r.body)('#appkernel-toolbar').length, 0, `${path} has a toolbar`);
  }
});

test.run();
