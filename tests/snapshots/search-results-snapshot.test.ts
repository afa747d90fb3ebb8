import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { matchSnapshot, reportUnusedSnapshots } from '../../snapshots/index.js';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { stablePage } from './stable-page.js';

const test = suite('search-results snapshot: /_profiler/?limit=10 on a fresh store');
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
  reportUnusedSnapshots();
});

test('when five known requests were made, then the search results list them newest first (the profiler requests hidden) and match the snapshot', async () => {
  // Profiles started in the same millisecond are listed by token, which is random: keep them a few ms apart.
  const apart = () => new Promise((resolve) => setTimeout(resolve, 3));
  for (const path of ['/', '/hello/world', '/robots.txt', '/contact', '/boom']) {
    await fetchProfiled(t, path);
    await apart();
  }
  const redirect = await fetchProfiled(t, '/_profiler/?limit=10');
  assert.is(redirect.status, 302);
  assert.is(redirect.headers.location, `${t.base}/_profiler/search?limit=10`);
  const r = await fetchText(redirect.headers.location!);
  assert.is(r.status, 200);
  const $ = load(r.body);
  const statuses = $('tbody tr td:first-child')
    .map((_, td) => $(td).text().trim())
    .get();
  assert.equal(
    statuses,
    ['500', '405', '404', '200', '200'],
    "newest first, /boom back to /, the profiler's own redirect hidden",
  );
  const all = load((await fetchText(`${redirect.headers.location!}&profiler=1`)).body);
  const urls = all('tbody tr td:nth-child(4)')
    .map((_, td) => all(td).text().trim())
    .get();
  assert.equal(
    urls.slice(0, 2),
    [`${t.base}/_profiler/search?limit=10`, `${t.base}/_profiler/?limit=10`],
    "the toggle shows the profiler's own requests",
  );
  const page = stablePage(r.body);
  matchSnapshot('search results', page.html, { normalisers: page.normalisers });
});

test.run();
