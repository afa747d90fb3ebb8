import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, type Fetched } from '../helpers/serve.js';

const test = suite(
  '--no-debug: every profiler and toolbar path is a plain 404, and no debug header is ever sent (real bin)',
);
let dir: string;
let serve: ServeProcess;
/** a token recorded in the same store by an earlier run with debug on */
let token: string;
/** the answer to a path that never existed, which every profiler path must equal */
let plain404: Fetched;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-nodebug-'));
  const store = join(dir, 'store');
  const debugRun = await startServe(['--store', store, '--no-watch'], { cwd: dir });
  token = (await fetchText(`${debugRun.base}/robots.txt`)).headers['x-debug-token'];
  await fetchProfileJson(debugRun.base, token);
  await debugRun.stop();
  serve = await startServe(['--no-debug', '--store', store, '--no-watch'], { cwd: dir });
  plain404 = await fetchText(`${serve.base}/no-such-path`);
});

test.after(async () => {
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const debugHeaders = (r: Fetched) => Object.keys(r.headers).filter((name) => /^x-debug|^x-robots-tag$/.test(name));

const PROFILER_PATHS = () => [
  '/_profiler',
  '/_profiler/',
  '/_profiler/search',
  '/_profiler/search?limit=10',
  '/_profiler/empty/search/results?limit=10',
  '/_profiler/latest',
  '/_profiler/latest.json',
  `/_profiler/${token}`,
  `/_profiler/${token}.json`,
  `/_profiler/${token}?panel=exception&type=request`,
  `/_profiler/${token}?panel=request`,
  '/_profiler/phpinfo',
  `/_wdt/${token}`,
  '/_wdt/styles',
  '/_profiler/open?file=app.config.ts&line=1',
];

test('when the plain 404 is asked for, then it is the production page, revealing nothing', () => {
  assert.is(plain404.status, 404);
  assert.ok(load(plain404.body).root().text().includes('Oops! An Error Occurred'));
  assert.equal(debugHeaders(plain404), []);
});

test('when any profiler or toolbar path is asked for with GET, HEAD or POST, then the same plain 404 as for a path that never existed', async () => {
  for (const path of PROFILER_PATHS()) {
    for (const method of ['GET', 'HEAD', 'POST']) {
      const r = await fetchText(`${serve.base}${path}`, { method });
      assert.is(r.status, 404, `${method} ${path}`);
      assert.equal(debugHeaders(r), [], `${method} ${path}`);
      if (method !== 'HEAD') assert.is(r.body, plain404.body, `${method} ${path}: the body differs from the plain 404`);
      assert.not.ok(r.body.includes(token), `${method} ${path} names the recorded token`);
    }
  }
});

test('when app pages answer 200, 301, 404, 405 and 500, then none carries a debug header or a toolbar', async () => {
  const cases: [string, string, number][] = [
    ['GET', '/', 200],
    ['GET', '/hello/world', 200],
    ['GET', '/hello/world/', 301],
    ['GET', '/robots.txt', 404],
    ['GET', '/contact', 405],
    ['GET', '/boom', 500],
    ['HEAD', '/', 200],
  ];
  for (const [method, path, status] of cases) {
    const r = await fetchText(`${serve.base}${path}`, { method });
    assert.is(r.status, status, `${method} ${path}`);
    assert.equal(debugHeaders(r), [], `${method} ${path}`);
    assert.is(load(r.body)('#appkernel-toolbar, .appkernel-toolbar').length, 0, `${method} ${path} has a toolbar`);
    assert.not.match(r.body, /_profiler\/[0-9a-f]{6}/, `${method} ${path} links to a profile`);
  }
});

test.run();
