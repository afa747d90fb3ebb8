import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_FILES, findAppFile, loadApp } from '../../server/load-app.js';
import { PACKAGE_ENTRY } from '../helpers/cli.js';

/** An app file naming itself; TypeScript syntax (an interface, annotations) in the .ts and .mts ones. */
function source(name: string): string {
  const typescript = name.endsWith('ts');
  return `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
${typescript ? 'interface Label { text: string }\n' : ''}const label${typescript ? ': Label' : ''} = { text: ${JSON.stringify(name)} };
export const app = createApp({ name: label.text }).get('home', '/', () => label.text);
`;
}

const test = suite(
  'the app file in the working directory: app.config.ts, .mts, .js or .mjs, loaded without a build step',
);
const dirs: string[] = [];
const folder = (files: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-app-discovery-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};
test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('when the names are listed, then they are the four documented ones, TypeScript first', () => {
  assert.equal([...APP_FILES], ['app.config.ts', 'app.config.mts', 'app.config.js', 'app.config.mjs']);
});

for (const name of ['app.config.ts', 'app.config.mts', 'app.config.js', 'app.config.mjs']) {
  test(`when the folder holds only ${name}, then it is found and loaded`, async () => {
    const dir = folder({ [name]: source(name) });
    const file = findAppFile(dir);
    assert.is(file, join(dir, name));
    const loaded = await loadApp(file);
    assert.is(loaded.app.options.name, name);
    assert.equal(
      loaded.app.routes.all().map((r) => r.name),
      ['home'],
    );
    assert.is(loaded.file, join(dir, name));
  });
}

test('when a "type": "module" package holds app.config.js, then it loads too', async () => {
  const dir = folder({ 'package.json': '{ "type": "module" }', 'app.config.js': source('app.config.js') });
  assert.is((await loadApp(findAppFile(dir))).app.options.name, 'app.config.js');
});

test('when several app files exist, then app.config.ts wins, then .mts, then .js', () => {
  const all = folder(Object.fromEntries(APP_FILES.map((name) => [name, source(name)])));
  assert.is(findAppFile(all), join(all, 'app.config.ts'));
  const noTs = folder({
    'app.config.mjs': source('app.config.mjs'),
    'app.config.js': source('app.config.js'),
    'app.config.mts': source('app.config.mts'),
  });
  assert.is(findAppFile(noTs), join(noTs, 'app.config.mts'));
  const js = folder({ 'app.config.mjs': source('app.config.mjs'), 'app.config.js': source('app.config.js') });
  assert.is(findAppFile(js), join(js, 'app.config.js'));
});

test('when there is no app file, then findAppFile gives null and loadApp the embedded demo app', async () => {
  const dir = folder({ 'other.ts': 'export {};' });
  assert.is(findAppFile(dir), null);
  const loaded = await loadApp(null);
  assert.is(loaded.file, null);
  assert.equal(
    loaded.app.routes.all().map((r) => r.name),
    ['home', 'hello', 'contact', 'boom'],
  );
});

test('when the file exports no app, then the error says how to export one', async () => {
  const dir = folder({ 'app.config.ts': 'export const nothing: number = 1;\n' });
  try {
    await loadApp(findAppFile(dir));
    assert.unreachable('loaded');
  } catch (error) {
    assert.is((error as { code?: string }).code, 'APP_ERR_APP_INVALID');
    assert.match((error as Error).message, /must export an app made with createApp\(\)/);
  }
});

test.run();
