import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runNode, startServe, type ServeProcess, type CliResult } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';

const EXAMPLE = resolve(process.cwd(), 'dist/scripts/replay-example.js');

const runExample = (args: string[]): Promise<CliResult> => runNode([EXAMPLE, ...args]);

const appSource = (extra = '') => `import { createApp, Response } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('home', '/', () => '<html><body>home</body></html>')${extra};
`;

const test = suite('scripts/replay-example: the exported replay() and diffReplay() from a script');
let dir: string;
let store: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-replay-example-'));
  store = join(dir, 'store');
  writeFileSync(join(dir, 'app.config.ts'), appSource());
  serve = await startServe(['--store', store], { cwd: dir });
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when the recorded 404 is replayed unchanged, then exit 0; after the app gains the route, exit 1 naming status and route', async () => {
  const token = (await fetchText(`${serve.base}/robots.txt`)).headers['x-debug-token'];
  await fetchProfileJson(serve.base, token);

  const same = await runExample([token, store]);
  assert.is(same.code, 0, same.stdout + same.stderr);
  assert.match(same.stdout, /GET .*\/robots\.txt: 404 when recorded, 404 now \(token [0-9a-f]{6}\)/);
  assert.match(same.stdout, /Same behaviour\./);

  writeFileSync(
    join(dir, 'app.config.ts'),
    appSource(`
  .get('robots', '/robots.txt', () => new Response('User-agent: *', 200, { 'Content-Type': 'text/plain' }))`),
  );
  const end = Date.now() + 5000;
  while ((await fetchText(`${serve.base}/robots.txt`)).status !== 200 && Date.now() < end)
    await new Promise((r) => setTimeout(r, 25));

  const differs = await runExample([token, store]);
  assert.is(differs.code, 1, differs.stdout + differs.stderr);
  assert.match(differs.stdout, /status: 404 -> 200/);
  assert.match(differs.stdout, /route: \(none\) -> robots/);
  assert.match(differs.stdout, /Different behaviour\./);
});

test('when the token is unknown, then a message on stderr and exit 2', async () => {
  const r = await runExample(['abcdef', store]);
  assert.is(r.code, 2);
  assert.match(r.stderr, /No profile "abcdef"/);
});

test('when the server that recorded the profile is down, then the reason on stderr, no stack trace, and exit 2', async () => {
  const token = (await fetchText(`${serve.base}/robots.txt`)).headers['x-debug-token'];
  await fetchProfileJson(serve.base, token);
  await serve.stop();
  const r = await runExample([token, store]);
  assert.is(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /^Cannot replay GET http:\/\/127\.0\.0\.1:\d+\/robots\.txt: .*Is the server running\?/);
  assert.not.match(r.stderr, /\n\s+at /, 'no stack trace');
});

test.run();
