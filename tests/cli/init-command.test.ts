import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';

const test = suite('app init [dir] [--force]');
let dir: string;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-init-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('app init <new dir> creates the folder and the scaffold', async () => {
  const r = await runApp(['init', 'fresh'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  for (const file of ['app.config.ts', 'package.json', 'tsconfig.json', 'public/favicon.ico', '.gitignore'])
    assert.ok(existsSync(join(dir, 'fresh', file)), file);
  const pkg = JSON.parse(readFileSync(join(dir, 'fresh', 'package.json'), 'utf8'));
  assert.equal(pkg.scripts, { dev: 'app serve', test: 'app snapshot / /notes/1 /hello/world', check: 'tsc --noEmit' });
  assert.equal(Object.keys(pkg.devDependencies), ['typescript', '@types/node']);
  assert.is(pkg.type, 'module');
  const config = readFileSync(join(dir, 'fresh', 'app.config.ts'), 'utf8');
  assert.match(config, /\.guard\(/);
  assert.match(config, /\.get\('admin', '\/admin'/);
});

test('a non-empty folder is refused with exit 2 and nothing in it changes; --force adds the scaffold and overwrites nothing', async () => {
  const mine = join(dir, 'mine');
  mkdirSync(mine);
  writeFileSync(join(mine, 'app.config.ts'), '// my own app\n');
  writeFileSync(join(mine, 'notes.txt'), 'keep me\n');
  writeFileSync(join(mine, 'package.json'), '{ "name": "mine", "scripts": { "test": "my-tests" } }\n');
  const refused = await runAppInProcess(['init', 'mine'], { cwd: dir });
  assert.is(refused.code, 2);
  assert.match(refused.stderr, /^app: The folder "mine" is not empty \(app\.config\.ts, notes\.txt\): use --force/m);
  assert.not.ok(existsSync(join(mine, 'tsconfig.json')), 'nothing written');
  const forced = await runAppInProcess(['init', 'mine', '--force'], { cwd: dir });
  assert.is(forced.code, 0, forced.stderr);
  assert.is(readFileSync(join(mine, 'app.config.ts'), 'utf8'), '// my own app\n');
  assert.is(readFileSync(join(mine, 'notes.txt'), 'utf8'), 'keep me\n');
  assert.ok(existsSync(join(mine, 'public', 'favicon.ico')));
  const pkg = JSON.parse(readFileSync(join(mine, 'package.json'), 'utf8'));
  assert.is(pkg.name, 'mine');
  assert.equal(pkg.scripts, { test: 'my-tests', dev: 'app serve', check: 'tsc --noEmit' });
  assert.match(forced.stderr, /kept +app\.config\.ts/);
});

test('an existing package.json gains only the missing scripts and the dependency; a script it has of the same name is kept and npx is shown instead; without "type": "module" the app file is app.config.mts', async () => {
  const theirs = join(dir, 'theirs');
  mkdirSync(theirs);
  writeFileSync(join(theirs, 'package.json'), '{ "name": "theirs", "scripts": { "dev": "vite" } }\n');
  const r = await runAppInProcess(['init', 'theirs'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  const pkg = JSON.parse(readFileSync(join(theirs, 'package.json'), 'utf8'));
  assert.equal(pkg, {
    name: 'theirs',
    scripts: { dev: 'vite', test: 'app snapshot / /notes/1 /hello/world', check: 'tsc --noEmit' },
    dependencies: { appkernel: pkg.dependencies.appkernel },
    devDependencies: { typescript: '^5.4.0', '@types/node': '^20.0.0' },
  });
  assert.match(
    r.stderr,
    /^updated package\.json \(added script "test", script "check", dependency "appkernel", dev dependency "typescript", dev dependency "@types\/node"\)$/m,
  );
  assert.match(r.stderr, /^note: +kept your "dev" script \("vite"\): serve the app with npx app serve$/m);
  assert.match(r.stderr, /^ +npx app serve +serve it on http:\/\/127\.0\.0\.1:8000/m);
  assert.ok(existsSync(join(theirs, 'app.config.mts')), 'an ES module in a package of another type');
  assert.not.ok(existsSync(join(theirs, 'app.config.ts')));
  const again = await runAppInProcess(['init', 'theirs', '--force'], { cwd: dir });
  assert.match(again.stderr, /^kept +package\.json \(already there\)$/m);
  assert.match(again.stderr, /^kept +app\.config\.mts/m);
});

test('a folder name with a space or a quote is shown quoted in the "cd" line, ready to paste into a shell', async () => {
  for (const [name, shown] of [
    ['my app', "'my app'"],
    ["bob's app", "$'bob\\'s app'"],
    ['plain-app', 'plain-app'],
  ]) {
    const r = await runAppInProcess(['init', name], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.ok(r.stderr.includes(`\n  cd ${shown}\n`), r.stderr);
  }
});

test('a file given as the folder is exit 2', async () => {
  writeFileSync(join(dir, 'a-file'), 'x');
  const r = await runAppInProcess(['init', 'a-file'], { cwd: dir });
  assert.is(r.code, 2);
  assert.match(r.stderr, /exists and is not a folder/);
});

test('a package.json that is not valid JSON is exit 2 naming it, and the folder is left as it was', async () => {
  const broken = join(dir, 'broken');
  mkdirSync(broken);
  writeFileSync(join(broken, 'package.json'), '{oops');
  for (const args of [
    ['init', 'broken'],
    ['init', 'broken', '--force'],
  ]) {
    const r = await runAppInProcess(args, { cwd: dir });
    assert.is(r.code, 2, args.join(' '));
    assert.match(r.stderr, /^app: The package\.json in ".*broken" is not valid JSON: /);
    assert.equal(readdirSync(broken), ['package.json'], `${args.join(' ')} wrote nothing`);
    assert.is(readFileSync(join(broken, 'package.json'), 'utf8'), '{oops');
  }
});

test.run();
