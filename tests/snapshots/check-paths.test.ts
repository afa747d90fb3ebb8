import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  checkSnapshots,
  defaultNormalisers,
  responseOutline,
  snapshotFileName,
  type FetchedPage,
} from '../../snapshots/index.js';

/** A fake app: its pages, and a counter that makes tokens and times change on every request. */
function fakeApp(pages: Record<string, { status: number; heading: string; headers?: Record<string, string> }>) {
  let n = 0;
  return async (path: string): Promise<FetchedPage> => {
    const page = pages[path];
    if (!page) throw new Error(`unexpected path ${path}`);
    n += 1;
    const token = (0xa00000 + n).toString(16);
    return {
      status: page.status,
      headers: { 'content-type': 'text/html; charset=utf-8', 'x-debug-token': token, ...page.headers },
      body: `<html><body><h1>${page.heading}</h1><p>took ${n}.5 ms</p><a href="/_profiler/${token}">${token}</a></body></html>`,
    };
  };
}

const PAGES = {
  '/': { status: 200, heading: 'Welcome' },
  '/hello/world': { status: 200, heading: 'Hello world' },
  '/robots.txt': { status: 404, heading: 'Error 404 Not Found' },
};
const PATHS = Object.keys(PAGES);

const test = suite('checkSnapshots');
let dir: string;
test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-check-'));
});
test.after.each(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('when first run, then each path is written to its file, the status on the first line', async () => {
  const { ok, results } = await checkSnapshots(fakeApp(PAGES), PATHS, { dir, update: false, ci: false });
  assert.ok(ok);
  assert.equal(
    results.map((r) => [r.path, r.state]),
    [
      ['/', 'written'],
      ['/hello/world', 'written'],
      ['/robots.txt', 'written'],
    ],
  );
  assert.equal(readdirSync(dir).sort(), ['hello__world.snap.txt', 'index.snap.txt', 'robots.txt.snap.txt']);
  assert.is(results[2]!.file, join(dir, 'robots.txt.snap.txt'));
  assert.is(
    readFileSync(join(dir, 'robots.txt.snap.txt'), 'utf8'),
    'status 404\nh1 "Error 404 Not Found"\np "took <DURATION>"\na[href=/_profiler/<TOKEN>] "<TOKEN>"\n',
  );
});

test('when run again with new tokens and durations, then every path passes', async () => {
  const app = fakeApp(PAGES);
  await checkSnapshots(app, PATHS, { dir, update: false, ci: false });
  const { ok, results } = await checkSnapshots(app, PATHS, { dir, update: false, ci: false });
  assert.ok(ok);
  assert.ok(results.every((r) => r.state === 'passed' && r.diff === undefined));
});

test('when a heading or a status changes, then that path fails with a diff and ok is false', async () => {
  await checkSnapshots(fakeApp(PAGES), PATHS, { dir, update: false, ci: false });
  const changed = { ...PAGES, '/robots.txt': { status: 200, heading: 'User-agent: *' } };
  const { ok, results } = await checkSnapshots(fakeApp(changed), PATHS, { dir, update: false, ci: false });
  assert.not.ok(ok);
  const robots = results.find((r) => r.path === '/robots.txt')!;
  assert.is(robots.state, 'failed');
  assert.ok(
    robots.diff!.includes('- status 404\n- h1 "Error 404 Not Found"\n+ status 200\n+ h1 "User-agent: *"\n'),
    robots.diff,
  );
  assert.ok(results.filter((r) => r.path !== '/robots.txt').every((r) => r.state === 'passed'));
});

test('when update is set, then a differing snapshot is rewritten and reported as updated', async () => {
  await checkSnapshots(fakeApp(PAGES), PATHS, { dir, update: false, ci: false });
  const changed = { ...PAGES, '/': { status: 200, heading: 'Welcome back' } };
  const { ok, results } = await checkSnapshots(fakeApp(changed), PATHS, { dir, update: true, ci: false });
  assert.ok(ok);
  assert.equal(
    results.map((r) => r.state),
    ['updated', 'passed', 'passed'],
  );
  assert.ok(readFileSync(join(dir, 'index.snap.txt'), 'utf8').includes('h1 "Welcome back"'));
});

test('when ci is set and a snapshot is missing, then it is reported missing, not written', async () => {
  const { ok, results } = await checkSnapshots(fakeApp(PAGES), ['/'], { dir, update: false, ci: true });
  assert.not.ok(ok);
  assert.is(results[0]!.state, 'missing');
  assert.equal(readdirSync(dir), []);
});

test('should record where a redirect goes', async () => {
  const app = fakeApp({
    '/hello/world/': {
      status: 301,
      heading: 'Redirecting',
      headers: { location: 'http://127.0.0.1:54321/hello/world' },
    },
  });
  const { results } = await checkSnapshots(app, ['/hello/world/'], { dir, update: false, ci: false });
  assert.ok(readFileSync(results[0]!.file, 'utf8').startsWith('status 301\nlocation http://<HOST>/hello/world\n'));
});

test.run();

// ---
const names = suite('snapshotFileName');

names('should name / index and join path segments with __', () => {
  assert.is(snapshotFileName('/'), 'index.snap.txt');
  assert.is(snapshotFileName('/hello/world'), 'hello__world.snap.txt');
  assert.is(snapshotFileName('/robots.txt'), 'robots.txt.snap.txt');
});

names('should replace other characters and keep distinct paths apart with a hash', () => {
  const a = snapshotFileName('/search?q=a b');
  assert.match(a, /^search_q_a_b-[0-9a-f]{8}\.snap\.txt$/);
  assert.is.not(snapshotFileName('/search?q=a_b'), a);
  assert.is.not(snapshotFileName('/hello/'), snapshotFileName('/hello'));
});

names('should never leave the folder: no slash, no leading dot', () => {
  for (const path of ['/..', '/../../etc/passwd', '/.hidden', '/a/../../b', '/%2e%2e/x', '/a\\..\\b']) {
    const name = snapshotFileName(path);
    assert.not.match(name, /[/\\]/, path);
    assert.not.match(name, /^\./, path);
  }
});

names.run();

// ---
const body = suite('responseOutline');

body(
  'when an error page lists frames outside the app, then they fold and their positions go, so an upgrade keeps the snapshot',
  () => {
    const page = (line: number) => ({
      status: 500,
      headers: { 'content-type': 'text/html' },
      body:
        `<html><body><h1>Error 500</h1><details><summary>2 vendor/internal frames</summary><ol class="frames">` +
        `<li class="frame-vendor">Kernel.handle in node_modules/appkernel/dist/kernel.js line ${line}</li>` +
        `<li class="frame-internal">Server.emit in node:events line 524</li></ol></details>` +
        `<pre class="trace">Error:\nboom\n\n  at Kernel.handle (node_modules/appkernel/dist/kernel.js:${line}:3)\n  at Server.emit (node:events:524:28)</pre>` +
        `<p>Uncaught at /opt/lib/node_modules/appkernel/dist/kernel.js line ${line}</p></body></html>`,
    });
    const outline = responseOutline(page(55), []);
    assert.is(outline.includes('Kernel.handle in'), false, outline);
    assert.ok(outline.includes('summary "vendor/internal frames"'), outline);
    assert.ok(outline.includes('>   at … (vendor/internal frames)'), outline);
    const withDefaults = (line: number) => responseOutline(page(line), defaultNormalisers({ root: '/srv/shop' }));
    assert.ok(
      withDefaults(55).includes('p "Uncaught at <ROOT>/node_modules/appkernel/dist/kernel.js line <LINE>"'),
      withDefaults(55),
    );
    assert.is(withDefaults(55), withDefaults(61));
  },
);

body.run();
