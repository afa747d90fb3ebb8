import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { matchSnapshot, reportUnusedSnapshots, SnapshotMismatchError } from '../../snapshots/index.js';
import { fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { stablePage } from './stable-page.js';

const debug = suite('error-page snapshots: the debug pages of the demo app');
let t: TestServer;

debug.before(async () => {
  t = await serveForTest();
});
debug.after(async () => {
  await t.stop();
});

debug('when GET /robots.txt with a Referer, then the 404 page matches its snapshot', async () => {
  const r = await fetchText(`${t.base}/robots.txt`, { headers: { referer: 'http://example.com/links' } });
  assert.is(r.status, 404);
  const page = stablePage(r.body);
  matchSnapshot('404 debug page', page.html, { normalisers: page.normalisers });
});

debug(
  "when the 404 page's heading changes, then its stored snapshot fails with a diff of that line alone",
  async () => {
    const r = await fetchText(`${t.base}/robots.txt`, { headers: { referer: 'http://example.com/links' } });
    const page = stablePage(r.body);
    const $ = load(page.html);
    const heading = $('h1').first().text();
    $('h1').first().text(`${heading} (changed)`);
    const dir = mkdtempSync(join(tmpdir(), 'appkernel-heading-'));
    const copy = join(dir, 'error-page-snapshots.404-debug-page.snap.txt');
    copyFileSync(
      join(process.cwd(), 'tests/snapshots/__snapshots__/error-page-snapshots.404-debug-page.snap.txt'),
      copy,
    );
    try {
      matchSnapshot('404 debug page', $.html(), { normalisers: page.normalisers, dir, update: false, ci: false });
      assert.unreachable('a changed heading should fail');
    } catch (error) {
      if (!(error instanceof SnapshotMismatchError)) throw error;
      const changed = error.diff.split('\n').filter((line) => /^[-+] /.test(line));
      assert.equal(changed, [`-     h1 "${heading}"`, `+     h1 "${heading} (changed)"`]);
      assert.match(error.message, /UPDATE_SNAPSHOTS=1/);
    } finally {
      const kept = readFileSync(copy, 'utf8');
      rmSync(dir, { recursive: true, force: true });
      assert.ok(kept.includes(`h1 "${heading}"`), 'a failing check leaves the stored snapshot alone');
    }
  },
);

debug('when GET /contact (POST only), then the 405 page matches its snapshot', async () => {
  const r = await fetchText(`${t.base}/contact`);
  assert.is(r.status, 405);
  assert.is(r.headers.allow, 'POST');
  const page = stablePage(r.body);
  matchSnapshot('405 debug page', page.html, { normalisers: page.normalisers });
});

debug("when GET /boom, then the 500 page, with the demo app's own frames and code, matches its snapshot", async () => {
  const r = await fetchText(`${t.base}/boom`);
  assert.is(r.status, 500);
  const page = stablePage(r.body);
  matchSnapshot('500 debug page', page.html, { normalisers: page.normalisers });
});

debug.run();

// ---
const production = suite('error-page snapshots: the production pages (debug off)');
let prod: TestServer;

production.before(async () => {
  prod = await serveForTest({ debug: false });
});
production.after(async () => {
  await prod.stop();
  // Here, after the last suite of this file: earlier, the snapshots of later suites would look unused.
  reportUnusedSnapshots();
});

production(
  'when GET /robots.txt without debug, then the Oops page matches its snapshot and names no internals',
  async () => {
    const r = await fetchText(`${prod.base}/robots.txt`);
    assert.is(r.status, 404);
    assert.not.ok(/NotFoundHttpError|robots\.txt|_profiler/.test(r.body), 'nothing internal is revealed');
    matchSnapshot('404 production page', r.body);
  },
);

production('when GET /boom without debug, then the Oops page says 500 and matches its snapshot', async () => {
  const r = await fetchText(`${prod.base}/boom`);
  assert.is(r.status, 500);
  assert.not.ok(/widgets|demo-app/.test(r.body), 'the exception message and file stay hidden');
  matchSnapshot('500 production page', r.body);
});

production.run();
