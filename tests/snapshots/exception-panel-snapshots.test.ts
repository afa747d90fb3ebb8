import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { matchSnapshot, reportUnusedSnapshots } from '../../snapshots/index.js';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { stablePage } from './stable-page.js';

const test = suite('exception-panel snapshots: /_profiler/<token>?panel=exception&type=request');
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
  reportUnusedSnapshots();
});

async function exceptionPanel(token: string): Promise<string> {
  const r = await fetchText(`${t.base}/_profiler/${token}?panel=exception&type=request`);
  assert.is(r.status, 200);
  return r.body;
}

test('when the 404 profile (with a Referer) is opened, then its exception panel matches its snapshot', async () => {
  const { token, status } = await fetchProfiled(t, '/robots.txt', { referer: 'http://example.com/links' });
  assert.is(status, 404);
  const page = stablePage(await exceptionPanel(token));
  matchSnapshot('404 exception panel', page.html, { normalisers: page.normalisers });
});

test('when the 405 profile is opened, then its exception panel matches its snapshot', async () => {
  const { token, status } = await fetchProfiled(t, '/contact');
  assert.is(status, 405);
  const page = stablePage(await exceptionPanel(token));
  matchSnapshot('405 exception panel', page.html, { normalisers: page.normalisers });
});

test('when the 500 profile is opened, then its exception panel matches its snapshot', async () => {
  const { token, status } = await fetchProfiled(t, '/boom');
  assert.is(status, 500);
  const page = stablePage(await exceptionPanel(token));
  matchSnapshot('500 exception panel', page.html, { normalisers: page.normalisers });
});

test.run();
