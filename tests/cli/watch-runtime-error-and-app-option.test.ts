import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';
import { answersWithin, outputShows } from '../helpers/poll.js';

// Required: `app serve --app <file>`; watch mode: "A broken edit (syntax or runtime error while loading) leaves
// the last good app serving and prints the error; the next good edit recovers." The neighbouring watch tests
// break the file with syntax errors; here it loads but throws, or exports no app.

// Watch mode must answer a change within one second; the assertion allows 2.5 s for a loaded CI box.
const MARGIN_MS = 2500;

const appSource = (routes: string, extra = '') => `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
${routes};
${extra}
`;

/** the controller's own text (a string answer is HTML, so the debug toolbar follows it) */
async function textOf(url: string): Promise<string> {
  return (await fetchText(url)).body.split(/<script id="appkernel-toolbar-observer"|<div/)[0];
}

const test = suite(
  'app serve --app <file> in watch mode: an edit that throws while loading keeps the last good app (real bin)',
);
let dir: string;
let store: string;
let appFile: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-watch-runtime-'));
  store = join(dir, 'store');
  mkdirSync(join(dir, 'src'));
  appFile = join(dir, 'src', 'server-app.ts');
  // The default app file of the working directory: --app must win over it.
  writeFileSync(join(dir, 'app.config.ts'), appSource(`  .get('default', '/default', () => 'default')`));
  writeFileSync(appFile, appSource(`  .get('chosen', '/chosen', () => 'chosen v1')`));
  // A load may take 1 s here (10 by default): an edit whose top-level await never settles fails in that time.
  serve = await startServe(['--app', 'src/server-app.ts', '--store', store], {
    cwd: dir,
    env: { APPKERNEL_LOAD_TIMEOUT: '1' },
  });
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when --app names a file, then that app is served, not the app.config.ts of the working directory, and the banner names it', async () => {
  assert.ok(serve.output().includes(`appkernel serving ${appFile} at ${serve.base}/`), serve.output());
  assert.is((await fetchText(`${serve.base}/chosen`)).status, 200);
  assert.is(await textOf(`${serve.base}/chosen`), 'chosen v1');
  assert.is((await fetchText(`${serve.base}/default`)).status, 404);
});

/** Edits right after the start or closer together than chokidar's change throttle (50 ms) are watch-quick-successive-edits.test.ts's subject. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

test('when an edit throws while the module loads, then the last good app keeps serving and the error is printed', async () => {
  await settle();
  writeFileSync(
    appFile,
    appSource(`  .get('chosen', '/chosen', () => 'chosen v2')`, `throw new Error('kaput while loading the app');`),
  );
  assert.ok(
    await outputShows(
      serve,
      /Reload failed, the last good app keeps serving: .*kaput while loading the app/,
      MARGIN_MS,
    ),
    serve.output(),
  );
  const r = await fetchText(`${serve.base}/chosen`);
  assert.is(r.status, 200);
  assert.ok(r.body.startsWith('chosen v1'), r.body.slice(0, 50));
  assert.match(r.headers['x-debug-token'] ?? '', /^[0-9a-f]{6}$/, 'still profiled');
});

test('when an edit exports no app, then the last good app keeps serving and the message says what to export', async () => {
  await settle();
  writeFileSync(appFile, `export const app = 42;\n`);
  assert.ok(
    await outputShows(serve, /Reload failed, the last good app keeps serving: .*must export an app/, MARGIN_MS),
    serve.output(),
  );
  assert.is(await textOf(`${serve.base}/chosen`), 'chosen v1');
});

test('when an edit awaits at top level what never comes, then the reload fails after the load timeout, saying so, and the last good app serves', async () => {
  await settle();
  writeFileSync(appFile, appSource(`  .get('chosen', '/chosen', () => 'chosen hung')`, 'await new Promise(() => {});'));
  assert.ok(
    await outputShows(
      serve,
      /Reload failed, the last good app keeps serving: .*did not finish loading within 1 s\. Does a top-level await wait/,
      MARGIN_MS + 1000,
    ),
    serve.output(),
  );
  const r = await fetchText(`${serve.base}/chosen`);
  assert.ok(r.body.startsWith('chosen v1'), r.body.slice(0, 50));
  assert.ok(r.headers['x-app-reload-failed']?.endsWith('server-app.ts'), 'the header names the app file');
  const head = await fetchText(`${serve.base}/chosen`, { method: 'HEAD' });
  assert.ok(
    Math.abs(Number(head.headers['content-length']) - Buffer.byteLength(r.body)) < 100,
    'HEAD counts the banner and toolbar too',
  );
});

test('when the next edit is good, then its new route answers within the margin and every profile is kept', async () => {
  const before = JSON.parse(
    (await runApp(['profiles', 'list', '--json', '--limit', '1000', '--store', store])).stdout,
  ) as { token: string }[];
  assert.ok(before.length >= 3);
  await settle();
  writeFileSync(
    appFile,
    appSource(`  .get('chosen', '/chosen', () => 'chosen v3')\n  .get('fresh', '/fresh', () => 'fresh')`),
  );
  const took = await answersWithin(`${serve.base}/fresh`, 200, MARGIN_MS);
  assert.ok(took !== null, `/fresh did not answer within ${MARGIN_MS} ms\n${serve.output()}`);
  assert.is(await textOf(`${serve.base}/chosen`), 'chosen v3');
  const after = new Set(
    (
      JSON.parse((await runApp(['profiles', 'list', '--json', '--limit', '1000', '--store', store])).stdout) as {
        token: string;
      }[]
    ).map((row) => row.token),
  );
  assert.ok(
    before.every((row) => after.has(row.token)),
    'every earlier profile is kept',
  );
});

test.run();
