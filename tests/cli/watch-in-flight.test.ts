import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

const app = (version: string) => `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('version', '/version', () => ({ version: ${JSON.stringify(version)} }))
  .get('slow', '/slow', async () => { await new Promise((r) => setTimeout(r, 800)); return { version: ${JSON.stringify(version)} }; });
`;

const test = suite('watch mode swaps the app between requests (real bin)');
let dir: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-in-flight-'));
  writeFileSync(join(dir, 'app.config.ts'), app('v1'));
  serve = await startServe(['--store', join(dir, 'store')], { cwd: dir });
});
test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when the app file changes while a request is in flight, then that request finishes on the old app and the next ones get the new', async () => {
  let settled = false;
  const slow = fetchText(`${serve.base}/slow`).finally(() => {
    settled = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  writeFileSync(join(dir, 'app.config.ts'), app('v2'));
  const end = Date.now() + 2500;
  let now = '';
  while (Date.now() < end && now !== 'v2') now = JSON.parse((await fetchText(`${serve.base}/version`)).body).version;
  assert.is(now, 'v2', serve.output());
  assert.not.ok(settled, 'the new app answered while the slow request was still in flight');
  const inFlight = await slow;
  assert.is(inFlight.status, 200);
  assert.equal(JSON.parse(inFlight.body), { version: 'v1' });
});

test.run();
