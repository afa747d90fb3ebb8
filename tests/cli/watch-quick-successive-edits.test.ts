import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../helpers/cli.js';
import { jsonFieldWithin, outputShows } from '../helpers/poll.js';

// Watch mode: "when the app file ... changes, the new app replaces the old one"; "the next good edit
// recovers". The last saved version must be the one served, however close together the saves come: a
// format-on-save rewrites the file a few ms after the editor did, and a non-atomic save is a truncate then a
// write. Found in the audit: chokidar drops a change event within 50 ms of the previous one for the same
// path (and the watcher is not ready when the banner is printed), so such a last edit is never loaded.

// Watch mode must answer a change within one second; the assertion allows 2.5 s for a loaded CI box.
const MARGIN_MS = 2500;

const app = (version: string, extra = '') => `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('version', '/version', () => ({ version: ${JSON.stringify(version)} }));
${extra}
`;

const versionWithin = (base: string, wanted: string, ms: number) =>
  jsonFieldWithin(`${base}/version`, 'version', wanted, ms);

const test = suite('watch mode serves the last saved version, however quickly the saves follow one another (real bin)');
let dir: string;
let appFile: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-watch-quick-'));
  appFile = join(dir, 'app.config.ts');
  writeFileSync(appFile, app('v1'));
  serve = await startServe(['--store', join(dir, 'store')], { cwd: dir });
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when the app file is edited as soon as the server says where it listens, then the edit is served', async () => {
  writeFileSync(appFile, app('v2'));
  assert.is(await versionWithin(serve.base, 'v2', MARGIN_MS), 'v2', serve.output());
});

test('when two good saves come 10 ms apart, then the second is served', async () => {
  await new Promise((resolve) => setTimeout(resolve, 300));
  writeFileSync(appFile, app('v3'));
  await new Promise((resolve) => setTimeout(resolve, 10));
  writeFileSync(appFile, app('v4'));
  assert.is(await versionWithin(serve.base, 'v4', MARGIN_MS), 'v4', serve.output());
});

test('when a good save follows right after a reload failed, then it is served', async () => {
  await new Promise((resolve) => setTimeout(resolve, 300));
  const failures = (serve.output().match(/Reload failed/g) ?? []).length;
  writeFileSync(appFile, app('v5', `throw new Error('broken v5');`));
  assert.ok(await outputShows(serve, new RegExp(`(Reload failed[^]*){${failures + 1}}`), MARGIN_MS), serve.output());
  writeFileSync(appFile, app('v6'));
  assert.is(await versionWithin(serve.base, 'v6', MARGIN_MS), 'v6', serve.output());
});

test('when a save truncates the file first and writes it a few ms later, then the whole new version is served', async () => {
  await new Promise((resolve) => setTimeout(resolve, 300));
  writeFileSync(appFile, '');
  await new Promise((resolve) => setTimeout(resolve, 5));
  writeFileSync(appFile, app('v7'));
  assert.is(await versionWithin(serve.base, 'v7', MARGIN_MS), 'v7', serve.output());
});

test.run();
