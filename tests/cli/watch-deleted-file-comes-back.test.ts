import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';
import { waitFor } from '../helpers/poll.js';

const MARGIN_MS = 5000;
/** longer than chokidar's window for an atomic save (a delete and a write within 100 ms are one change) */
const AWAY_MS = 500;
const away = () => new Promise((resolve) => setTimeout(resolve, AWAY_MS));

const appFile = (suffix: string) => `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
import { greeting } from './lib/greet.js';
export const app = createApp().get('hello', '/hello', () => ({ said: greeting() + ${JSON.stringify(suffix)} }));
`;
const greetModule = (word: string) => `export const greeting = (): string => ${JSON.stringify(word)};\n`;

const test = suite('watch mode follows a file that is deleted and written again (real bin)');
let dir: string;
let serve: ServeProcess;

async function served(wanted: string): Promise<string> {
  let now = '';
  await waitFor(async () => {
    const r = await fetchText(`${serve.base}/hello`);
    now = r.status === 200 ? JSON.parse(r.body).said : `status ${r.status}`;
    return now === wanted;
  }, MARGIN_MS);
  return now;
}

async function failedReloads(count: number): Promise<boolean> {
  return waitFor(() => (serve.output().match(/Reload failed/g) ?? []).length >= count, MARGIN_MS);
}

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-watch-deleted-'));
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib', 'greet.ts'), greetModule('hi'));
  writeFileSync(join(dir, 'app.config.ts'), appFile('!'));
  serve = await startServe(['--store', join(dir, 'store')], { cwd: dir });
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when an imported module is deleted, then the last good app serves; when it is written again, then the app reloads, and follows its later edits', async () => {
  assert.is(await served('hi!'), 'hi!');
  rmSync(join(dir, 'lib', 'greet.ts'));
  assert.ok(await failedReloads(1), serve.output());
  await away();
  writeFileSync(join(dir, 'lib', 'greet.ts'), greetModule('back'));
  assert.is(await served('back!'), 'back!', serve.output());
  writeFileSync(join(dir, 'lib', 'greet.ts'), greetModule('edited'));
  assert.is(await served('edited!'), 'edited!', serve.output());
});

test('when the app file is deleted and written again, then the app reloads, and follows its later edits', async () => {
  rmSync(join(dir, 'app.config.ts'));
  assert.ok(await failedReloads(2), serve.output());
  await away();
  writeFileSync(join(dir, 'app.config.ts'), appFile('?'));
  assert.is(await served('edited?'), 'edited?', serve.output());
  writeFileSync(join(dir, 'app.config.ts'), appFile('.'));
  assert.is(await served('edited.'), 'edited.', serve.output());
});

test.run();
