import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp } from '../helpers/cli.js';

// A fresh `app init` project type-checks from the first minute: `tsc --noEmit` (its `npm run check`)
// accepts the extensionless relative imports the README shows, and finds Node's types. Offline: the
// project's node_modules links appkernel to this checkout and the compiler and @types/node to its own.

const test = suite('app init: a project that type-checks (real tsc)');
const REPO = process.cwd();
let dir: string;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-init-tsc-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

function tsc(cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [resolve(REPO, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.'],
      { cwd, timeout: 120_000 },
      (error, stdout, stderr) => {
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, out: stdout + stderr });
      },
    );
  });
}

test('tsc --noEmit passes on app init with an app file importing ./lib/pricing without an extension, and the package has the check script and dev dependencies', async () => {
  const init = await runApp(['init', 'shop'], { cwd: dir });
  assert.is(init.code, 0, init.stderr);
  const project = join(dir, 'shop');
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  assert.is(pkg.scripts.check, 'tsc --noEmit');
  assert.ok(
    pkg.devDependencies.typescript !== undefined && pkg.devDependencies['@types/node'] !== undefined,
    JSON.stringify(pkg),
  );
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(REPO, join(project, 'node_modules', 'appkernel'));
  symlinkSync(resolve(REPO, 'node_modules/typescript'), join(project, 'node_modules', 'typescript'));
  symlinkSync(resolve(REPO, 'node_modules/@types/node'), join(project, 'node_modules', '@types', 'node'));
  mkdirSync(join(project, 'lib'));
  writeFileSync(
    join(project, 'lib', 'pricing.ts'),
    'export function price(cents: number): string {\n  return `${(cents / 100).toFixed(2)} EUR (${process.env.CURRENCY ?? "default"})`;\n}\n',
  );
  const config = readFileSync(join(project, 'app.config.ts'), 'utf8');
  writeFileSync(
    join(project, 'app.config.ts'),
    `import { price } from './lib/pricing';\n${config}\nexport const shown: string = price(1250);\n`,
  );
  const checked = await tsc(project);
  assert.is(checked.code, 0, checked.out);
  // and a type error is still found: the check is a real one
  writeFileSync(
    join(project, 'lib', 'broken.ts'),
    "import { price } from './pricing';\nexport const n: number = price(1);\n",
  );
  const broken = await tsc(project);
  assert.is.not(broken.code, 0, broken.out);
  assert.match(broken.out, /TS2322/);
});

test.run();
