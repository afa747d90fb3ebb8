import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../helpers/cli.js';
import { outputShows, waitFor } from '../helpers/poll.js';
import { fetchText } from '../helpers/serve.js';

// CommonJS modules are cached by path: a reload used to serve an edited .cjs file's old exports,
// and a .cjs file that another one requires was not even watched.

const MARGIN_MS = 2500;

const test = suite('watch mode reloads the CommonJS modules of an app (real bin)');
let dir: string;
let serve: ServeProcess;

const version = async (): Promise<string> => {
  const r = await fetchText(`${serve.base}/version`);
  return r.status === 200 ? JSON.parse(r.body).version : `status ${r.status}`;
};

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-watch-cjs-'));
  writeFileSync(
    join(dir, 'app.config.ts'),
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
import lib from './lib.cjs';
export const app = createApp().get('version', '/version', () => ({ version: lib.version }));
`,
  );
  writeFileSync(join(dir, 'lib.cjs'), `module.exports = { version: 'lib ' + require('./number.cjs') };\n`);
  writeFileSync(join(dir, 'number.cjs'), `module.exports = 'v0';\n`);
  serve = await startServe(['--store', join(dir, 'store')], { cwd: dir });
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when a .cjs file the app requires through another is edited, then the app reloads into its new exports and says "Reloaded app.config.ts (1 route)", the path relative to the working folder', async () => {
  assert.is(await version(), 'lib v0');
  writeFileSync(join(dir, 'number.cjs'), `module.exports = 'v1';\n`);
  assert.ok(
    await waitFor(async () => (await version()) === 'lib v1', MARGIN_MS),
    `still ${await version()}\n${serve.output()}`,
  );
  assert.ok(await outputShows(serve, /Reloaded app\.config\.ts \(1 route\)\./, MARGIN_MS), serve.output());
});

test('when the .cjs file the app imports is edited, then the app reloads into its new exports', async () => {
  writeFileSync(join(dir, 'lib.cjs'), `module.exports = { version: 'edited ' + require('./number.cjs') };\n`);
  assert.ok(
    await waitFor(async () => (await version()) === 'edited v1', MARGIN_MS),
    `still ${await version()}\n${serve.output()}`,
  );
});

test('when the .cjs file breaks, then the reload fails once with its reason, the last good app serves, and no unhandled rejection is reported', async () => {
  writeFileSync(join(dir, 'lib.cjs'), `throw new Error('lib refuses to load');\n`);
  assert.ok(
    await outputShows(serve, /Reload failed, the last good app keeps serving: .*lib refuses to load/, MARGIN_MS),
    serve.output(),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.is(await version(), 'edited v1');
  assert.not.match(serve.output(), /Unhandled promise rejection/);
  writeFileSync(join(dir, 'lib.cjs'), `module.exports = { version: 'fixed' };\n`);
  assert.ok(
    await waitFor(async () => (await version()) === 'fixed', MARGIN_MS),
    `still ${await version()}\n${serve.output()}`,
  );
});

test.run();
