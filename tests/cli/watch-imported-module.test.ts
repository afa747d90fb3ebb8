import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';
import { answersWithin } from '../helpers/poll.js';

// Watch mode must answer a change within one second; the assertion allows 2.5 s for a loaded CI box.
const MARGIN_MS = 2500;

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
import { pages } from './pages';
let app = createApp().get('home', '/', () => '<html><body>home</body></html>');
for (const page of pages) app = app.get(page, \`/\${page}\`, () => \`<html><body>\${page}</body></html>\`);
export { app };
`;

const pages = (names: string[]) => `export const pages: string[] = ${JSON.stringify(names)};\n`;

const test = suite('watch mode follows a module the app file imports (real bin)');
let dir: string;
let store: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-watch-import-'));
  store = join(dir, 'store');
  writeFileSync(join(dir, 'pages.ts'), pages([]));
  writeFileSync(join(dir, 'app.config.ts'), APP);
  serve = await startServe(['--store', store], { cwd: dir });
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when the imported module changes, then its new route answers within the margin and no profile is lost', async () => {
  assert.is((await fetchText(`${serve.base}/about`)).status, 404);
  const listed = async () =>
    JSON.parse((await runApp(['profiles', 'list', '--json', '--limit', '1000', '--store', store])).stdout) as {
      token: string;
    }[];
  // The 404's profile reaches the disk a moment after its answer: another process lists it from then on.
  let before = await listed();
  for (let i = 0; before.length === 0 && i < 50; i++)
    before = (await new Promise((resolve) => setTimeout(resolve, 100)), await listed());
  assert.ok(before.length >= 1, 'the 404 is stored');
  writeFileSync(join(dir, 'pages.ts'), pages(['about']));
  const took = await answersWithin(`${serve.base}/about`, 200, MARGIN_MS);
  assert.ok(took !== null, `/about did not answer 200 within ${MARGIN_MS} ms\n${serve.output()}`);
  const after = new Set((await listed()).map((row) => row.token));
  assert.ok(
    before.every((row) => after.has(row.token)),
    'every earlier profile is kept',
  );
});

test('when the imported module is broken, then the last good app keeps serving and says why; the next good edit recovers', async () => {
  writeFileSync(join(dir, 'pages.ts'), 'export const pages: string[] = [;\n');
  await new Promise((resolve) => setTimeout(resolve, 700));
  assert.is((await fetchText(`${serve.base}/about`)).status, 200);
  assert.match(serve.output(), /Reload failed, the last good app keeps serving/);
  writeFileSync(join(dir, 'pages.ts'), pages(['about', 'team']));
  assert.ok((await answersWithin(`${serve.base}/team`, 200, MARGIN_MS)) !== null, serve.output());
});

test.run();
