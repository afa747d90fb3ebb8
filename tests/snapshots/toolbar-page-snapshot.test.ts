import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { matchSnapshot, reportUnusedSnapshots } from '../../snapshots/index.js';
import { fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { stablePage } from './stable-page.js';

const test = suite('toolbar-page snapshot: an HTML page of the demo app in debug mode');
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
  reportUnusedSnapshots();
});

test('when GET /hello/world, then the page ends with the toolbar linking to its profile, and matches the snapshot', async () => {
  const r = await fetchText(`${t.base}/hello/world`);
  assert.is(r.status, 200);
  assert.ok(
    r.body.includes(`href="/_profiler/${r.headers['x-debug-token']}"`),
    "the toolbar links to the page's own profile",
  );
  const page = stablePage(r.body);
  matchSnapshot('hello page with toolbar', page.html, { normalisers: page.normalisers });
});

test.run();
