import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import nodeModule, { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadApp } from '../../server/load-app.js';
import { PACKAGE_ENTRY } from '../helpers/cli.js';

// Watch mode reloads the app file many times in one process: each load must see the edited local modules,
// report them (also when the load fails, so a fix of the broken module is noticed), and add no module hooks.

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
import { label } from './label';
export const app = createApp({ name: label });
`;

const test = suite('loadApp, called again and again in one process');
let dir: string;
let registrations = 0;
const register = nodeModule.register;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-load-again-'));
  nodeModule.register = ((...args: Parameters<typeof register>) => {
    registrations++;
    return register(...args);
  }) as typeof register;
  syncBuiltinESMExports();
});

test.after(() => {
  nodeModule.register = register;
  syncBuiltinESMExports();
  rmSync(dir, { recursive: true, force: true });
});

test('when a local module changes between loads, then each load runs its new version, and no module hook is added after the first load', async () => {
  writeFileSync(join(dir, 'app.config.ts'), APP);
  writeFileSync(join(dir, 'label.ts'), `export const label: string = 'v0';\n`);
  const first = await loadApp(join(dir, 'app.config.ts'));
  assert.is(first.app.options.name, 'v0');
  assert.equal(first.dependencies.sort(), [join(dir, 'app.config.ts'), join(dir, 'label.ts')]);
  const afterFirst = registrations;
  for (let i = 1; i <= 5; i++) {
    writeFileSync(join(dir, 'label.ts'), `export const label: string = 'v${i}';\n`);
    assert.is((await loadApp(join(dir, 'app.config.ts'))).app.options.name, `v${i}`);
  }
  assert.is(registrations, afterFirst, 'module hooks registered by later loads');
});

test('when a CommonJS module the app imports, or one it requires, changes between loads, then the next load runs its new version and both are dependencies', async () => {
  const app = join(dir, 'cjs', 'app.config.ts');
  mkdirSync(join(dir, 'cjs'), { recursive: true });
  writeFileSync(
    app,
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};\nimport lib from './lib.cjs';\nexport const app = createApp({ name: lib.name });\n`,
  );
  writeFileSync(join(dir, 'cjs', 'lib.cjs'), `module.exports = { name: 'lib ' + require('./version.cjs') };\n`);
  writeFileSync(join(dir, 'cjs', 'version.cjs'), `module.exports = 'v0';\n`);
  const first = await loadApp(app);
  assert.is(first.app.options.name, 'lib v0');
  assert.equal(first.dependencies.sort(), [app, join(dir, 'cjs', 'lib.cjs'), join(dir, 'cjs', 'version.cjs')]);
  writeFileSync(join(dir, 'cjs', 'version.cjs'), `module.exports = 'v1';\n`);
  assert.is((await loadApp(app)).app.options.name, 'lib v1', 'a required module reloads');
  writeFileSync(join(dir, 'cjs', 'lib.cjs'), `module.exports = { name: 'edited ' + require('./version.cjs') };\n`);
  assert.is((await loadApp(app)).app.options.name, 'edited v1', 'an imported module reloads');
  assert.is(first.app.options.name, 'lib v0', 'the app loaded first keeps its modules');
});

test('when a load fails in a local module, then that module is still reported as a dependency', async () => {
  writeFileSync(join(dir, 'label.ts'), 'export const label: string = [;\n');
  const dependencies = new Set<string>();
  try {
    await loadApp(join(dir, 'app.config.ts'), dependencies);
    assert.unreachable('the load should fail');
  } catch (error) {
    assert.is((error as { code?: string }).code, 'APP_ERR_APP_LOAD');
  }
  assert.equal([...dependencies].sort(), [join(dir, 'app.config.ts'), join(dir, 'label.ts')]);
});

test.run();
