import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

// The app API page's example (docs/app-api.md, linked from the README), run as written (only the package name points at this build).

const test = suite('the app API example of docs/app-api.md works as shown (real bin)');
let dir: string;
let serve: ServeProcess;

test.before(async () => {
  const section = readFileSync('docs/app-api.md', 'utf8');
  const code = /```ts\n([^]*?)```/.exec(section)![1];
  dir = mkdtempSync(join(tmpdir(), 'appkernel-readme-'));
  writeFileSync(join(dir, 'app.config.ts'), code.replace("from 'appkernel'", `from ${JSON.stringify(PACKAGE_ENTRY)}`));
  serve = await startServe(['--store', join(dir, 'var'), '--no-watch'], { cwd: dir });
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('the guard example guards a route that exists: 401 without Authorization, 200 with it', async () => {
  const refused = await fetchText(`${serve.base}/admin`);
  assert.is(refused.status, 401);
  assert.match(refused.body, /Sign in first\./);
  assert.is((await fetchText(`${serve.base}/admin`, { headers: { authorization: 'Bearer t' } })).status, 200);
});

test('the other routes answer as the comments say', async () => {
  assert.match((await fetchText(`${serve.base}/`)).body, /<h1>Home<\/h1>/);
  assert.equal(JSON.parse((await fetchText(`${serve.base}/posts/7`)).body), { id: 7 });
  assert.is((await fetchText(`${serve.base}/pages`)).body, 'page 1');
  const posted = await fetchText(`${serve.base}/contact`, { method: 'POST', body: '{"email":"a@b.c"}' });
  assert.is(posted.status, 303);
  assert.is((await fetchText(`${serve.base}/contact`, { method: 'POST', body: '{', headers: { accept: 'application/json' } })).status, 400);
});

test.run();
