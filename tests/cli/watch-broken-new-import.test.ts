import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../helpers/cli.js';
import { jsonFieldWithin } from '../helpers/poll.js';

// Watch mode: "A broken edit ... leaves the last good app serving ...; the next good edit recovers."
// Here the broken edit imports a new module that does not compile, and the good edit fixes that module only.

const MARGIN_MS = 2500;

const app = (importExtra: boolean) => `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
${importExtra ? `import { extra } from './extra';\n` : "const extra = 'none';\n"}export const app = createApp()
  .get('extra', '/extra', () => ({ extra }));
`;

const extraWithin = (base: string, wanted: string, ms: number) => jsonFieldWithin(`${base}/extra`, 'extra', wanted, ms);

const test = suite('watch mode follows a module first imported by a broken edit (real bin)');
let dir: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-watch-new-import-'));
  writeFileSync(join(dir, 'app.config.ts'), app(false));
  serve = await startServe(['--store', join(dir, 'store')], { cwd: dir });
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when the app file starts importing a broken new module, then the last good app serves; when that module is fixed, then the app reloads', async () => {
  assert.is(await extraWithin(serve.base, 'none', MARGIN_MS), 'none');
  writeFileSync(join(dir, 'extra.ts'), 'export const extra: string = [;\n');
  writeFileSync(join(dir, 'app.config.ts'), app(true));
  const end = Date.now() + MARGIN_MS;
  while (!/Reload failed/.test(serve.output()) && Date.now() < end)
    await new Promise((resolve) => setTimeout(resolve, 10));
  assert.match(serve.output(), /Reload failed/);
  assert.is(await extraWithin(serve.base, 'none', 100), 'none');
  writeFileSync(join(dir, 'extra.ts'), `export const extra: string = 'fixed';\n`);
  assert.is(await extraWithin(serve.base, 'fixed', MARGIN_MS), 'fixed', serve.output());
});

test.run();
