import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, runAppInProcess } from '../helpers/cli.js';

const test = suite('an app that fails to load is reported with its place, a code frame and the app frames');
let dir: string;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-load-error-'));
  mkdirSync(join(dir, 'lib'));
  writeFileSync(
    join(dir, 'lib', 'config.ts'),
    `const settings: any = {};\n\nexport function region(): string {\n  return settings.eu.region;\n}\n`,
  );
  writeFileSync(
    join(dir, 'throws.ts'),
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};\nimport { region } from './lib/config';\n\nexport const app = createApp({ name: region() });\n`,
  );
  writeFileSync(join(dir, 'missing.ts'), `import { createApp } from 'appkernel';\nexport const app = createApp();\n`);
  writeFileSync(
    join(dir, 'wrong-import.ts'),
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};\nimport { helper } from './lib/helpers.js';\n\nexport const app = createApp({ name: helper() });\n`,
  );
  writeFileSync(
    join(dir, 'syntax.ts'),
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};\nconst broken: number[] = [;\nexport const app = createApp();\n`,
  );
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

for (const command of [['routes'], ['snapshot', '/'], ['serve', '--port', '0', '--no-watch']]) {
  test(`app ${command[0]}: a runtime error names the file, line and column, shows the lines around it and the app's stack`, async () => {
    const { code, stderr } = await runApp(
      [...command, '--app', 'throws.ts', ...(command[0] === 'serve' ? ['--store', join(dir, 'var')] : [])],
      { cwd: dir },
    );
    assert.is(code, 2, stderr);
    assert.match(
      stderr,
      `failed to load: Cannot read properties of undefined (reading 'region') (${join(dir, 'lib', 'config.ts')}:4:22)`,
    );
    assert.match(
      stderr,
      /  3 \| export function region\(\): string \{\n> 4 \|   return settings\.eu\.region;\n    \|                      \^\n/,
    );
    assert.match(stderr, /Stack \(app frames\):\n  at region \([^\n]*lib\/config\.ts:4:22\)\n  at [^\n]*throws\.ts:4:/);
    assert.not.match(stderr, /node_modules|node:internal/, "only the app's frames");
  });
}

test('app routes: a package that is not installed (appkernel, right after app init) says to run npm install', async () => {
  const { code, stderr } = await runAppInProcess(['routes', '--app', 'missing.ts'], { cwd: dir });
  assert.is(code, 2, stderr);
  assert.match(
    stderr,
    /failed to load: Cannot find package 'appkernel' imported from [^\n]*missing\.ts\. Is it installed\? Run npm install in the app's folder/,
  );
});

test('app routes: an import of a file that is not there names the line and column of the import, with a caret under its path', async () => {
  const { code, stderr } = await runAppInProcess(['routes', '--app', 'wrong-import.ts'], { cwd: dir });
  assert.is(code, 2, stderr);
  assert.match(
    stderr,
    `failed to load: Cannot find module '${join(dir, 'lib', 'helpers.js')}' imported from ${join(dir, 'wrong-import.ts')} (${join(dir, 'wrong-import.ts')}:2:24)`,
  );
  assert.match(stderr, /> 2 \| import \{ helper \} from '\.\/lib\/helpers\.js';\n    \| {24}\^/);
});

test('app routes: a syntax error names the file, line and column with a caret under it', async () => {
  const { code, stderr } = await runAppInProcess(['routes', '--app', 'syntax.ts'], { cwd: dir });
  assert.is(code, 2);
  assert.match(stderr, `failed to load: Unexpected ";" (${join(dir, 'syntax.ts')}:2:27)`);
  assert.match(stderr, /> 2 \| const broken: number\[\] = \[;\n    \| {27}\^/);
});

test.run();
