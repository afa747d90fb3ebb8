import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchRawPath, fetchText } from '../helpers/serve.js';
import { outputShows, waitFor } from '../helpers/poll.js';

const test = suite('app serve --public: static files before routing, no way out of the folder (real bin)');
let dir: string;
let store: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-static-'));
  store = join(dir, 'store');
  mkdirSync(join(dir, 'public', 'css'), { recursive: true });
  mkdirSync(join(dir, 'secret'));
  writeFileSync(join(dir, 'public', 'css', 'site.css'), 'body { color: red; }\n');
  writeFileSync(join(dir, 'public', 'hello.txt'), 'hello world');
  writeFileSync(join(dir, 'public', 'page.html'), '<html><body>static page</body></html>');
  writeFileSync(join(dir, 'secret', 'key.txt'), 'TOP SECRET');
  symlinkSync(join(dir, 'secret'), join(dir, 'public', 'out'));
  symlinkSync(join(dir, 'secret', 'key.txt'), join(dir, 'public', 'key.txt'));
  writeFileSync(
    join(dir, 'app.config.ts'),
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp().get('home', '/', () => '<html><body>home</body></html>');\n`,
  );
  serve = await startServe(['--store', store, '--log-level', 'ERROR'], { cwd: dir });
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('./public is served by default, with content types; the app still answers its routes', async () => {
  assert.ok(await outputShows(serve, /Public files: .*public/, 3000), serve.output());
  const css = await fetchText(`${serve.base}/css/site.css`);
  assert.is(css.status, 200);
  assert.match(css.headers['content-type'], /^text\/css/);
  assert.is(css.body, 'body { color: red; }\n');
  const html = await fetchText(`${serve.base}/page.html`);
  assert.match(html.headers['content-type'], /^text\/html/);
  assert.is(html.body, '<html><body>static page</body></html>', 'no toolbar in a static file');
  assert.is((await fetchText(`${serve.base}/`)).status, 200);
});

test('ETag and Last-Modified are sent, and a conditional request is a 304', async () => {
  const first = await fetchText(`${serve.base}/hello.txt`);
  assert.ok(first.headers.etag);
  assert.ok(first.headers['last-modified']);
  assert.is(
    (await fetchText(`${serve.base}/hello.txt`, { headers: { 'if-none-match': first.headers.etag } })).status,
    304,
  );
  assert.is(
    (await fetchText(`${serve.base}/hello.txt`, { headers: { 'if-modified-since': first.headers['last-modified'] } }))
      .status,
    304,
  );
});

test('a Range request gets 206 and the bytes asked for; an impossible range 416', async () => {
  const part = await fetchText(`${serve.base}/hello.txt`, { headers: { range: 'bytes=6-10' } });
  assert.is(part.status, 206);
  assert.is(part.body, 'world');
  assert.is(part.headers['content-range'], 'bytes 6-10/11');
  assert.is((await fetchText(`${serve.base}/hello.txt`, { headers: { range: 'bytes=50-60' } })).status, 416);
});

test('.., encoded, double-encoded and symlinks out of the folder never reach a file outside', async () => {
  for (const path of [
    '/../secret/key.txt',
    '/%2e%2e/secret/key.txt',
    '/%2E%2E%2Fsecret%2Fkey.txt',
    '/css/..%2f..%2fsecret/key.txt',
    '/%252e%252e/secret/key.txt',
    '/%252e%252e%252fsecret%252fkey.txt',
    '/out/key.txt',
    '/key.txt',
    '/..%5csecret%5ckey.txt',
  ]) {
    const r = await fetchRawPath(serve.base, path);
    assert.ok(r.status === 403 || r.status === 404, `${path}: ${r.status}`);
    assert.not.match(r.body, /TOP SECRET/, path);
  }
});

test('static answers are not profiled; a missing /favicon.ico is a 404 without an ERROR line or a profile', async () => {
  const tokens = async () =>
    (
      JSON.parse((await runApp(['profiles', 'list', '--json', '--limit', '1000', '--store', store])).stdout) as {
        token: string;
      }[]
    ).map((p) => p.token);
  const first = (await fetchText(`${serve.base}/`)).headers['x-debug-token'];
  assert.ok(await waitFor(async () => (await tokens()).includes(first), 3000));
  const before = (await tokens()).length;
  assert.is((await fetchText(`${serve.base}/hello.txt`)).status, 200);
  const favicon = await fetchText(`${serve.base}/favicon.ico`);
  assert.is(favicon.status, 404);
  assert.is(favicon.headers['x-debug-token'], undefined);
  const last = (await fetchText(`${serve.base}/`)).headers['x-debug-token']; // profiles are written in order
  assert.ok(await waitFor(async () => (await tokens()).includes(last), 3000));
  assert.is((await tokens()).length, before + 1, 'only the last request was profiled');
  assert.not.match(serve.output(), /ERROR[^\n]*favicon/);
});

test.run();

const profiled = suite('app serve --profile-static, and a --public that does not exist (real bin)');
let dir2: string;
let serve2: ServeProcess;

profiled.before(async () => {
  dir2 = mkdtempSync(join(tmpdir(), 'appkernel-static-profiled-'));
  mkdirSync(join(dir2, 'assets'));
  writeFileSync(join(dir2, 'assets', 'a.txt'), 'A');
  serve2 = await startServe(['--store', join(dir2, 'store'), '--public', 'assets', '--profile-static'], { cwd: dir2 });
});

profiled.after(async () => {
  await serve2.stop();
  rmSync(dir2, { recursive: true, force: true });
});

profiled('with --profile-static, a static answer has its profile', async () => {
  const r = await fetchText(`${serve2.base}/a.txt`);
  assert.is(r.body, 'A');
  assert.ok(r.headers['x-debug-token']);
});

profiled('a --public folder that does not exist is exit 2 with a message', async () => {
  const r = await runApp(['serve', '--port', '0', '--public', 'nowhere'], { cwd: dir2 });
  assert.is(r.code, 2);
  assert.match(r.stderr, /The public folder "nowhere" does not exist/);
});

profiled.run();
