import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// Run from the project root, as every suite is (npm test, .ci/run).
const read = (path: string) => readFileSync(path, 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  name: string;
  type: string;
  bin: Record<string, string>;
  engines: { node: string };
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

const test = suite(
  "the project foundation: package.json, tsconfig, folders, CI script, README, the test runner's closing line",
);

test('when package.json is read, then it is "appkernel", an ES module, with an "app" bin, Node 20.19+ and the scripts build, test, start, bench:router', () => {
  assert.is(pkg.name, 'appkernel');
  assert.is(pkg.type, 'module');
  assert.is(pkg.bin.app, 'dist/cli/bin.js');
  assert.match(pkg.engines.node, /^>=\s*20\.19(\.0)?$/);
  for (const script of ['build', 'test', 'start', 'bench:router']) assert.type(pkg.scripts[script], 'string', script);
  assert.match(pkg.scripts.prepare ?? '', /build/, 'npm ci / npm install builds the project (prepare)');
  assert.ok(
    pkg.devDependencies['find-my-way'] && pkg.devDependencies['fast-check'],
    'find-my-way and fast-check are devDependencies',
  );
});

test('when the project is built, then the "app" command is an executable file with a node shebang, which npx and a global install run as it is', () => {
  accessSync(pkg.bin.app, constants.X_OK);
  assert.match(read(pkg.bin.app), /^#!\/usr\/bin\/env node\n/);
});

test('when tsconfig.json is read, then it is strict', () => {
  const tsconfig = JSON.parse(read('tsconfig.json')) as { compilerOptions: { strict?: boolean } };
  assert.is(tsconfig.compilerOptions.strict, true);
});

test('when the top-level folders are listed, then those of ARCHITECTURE.md are there', () => {
  for (const folder of ['cli', 'server', 'web-profiler', 'core', 'render', 'snapshots', 'scripts', 'tests'])
    assert.ok(statSync(folder).isDirectory(), folder);
  for (const folder of ['core/routing', 'core/http', 'core/kernel', 'core/log', 'core/app'])
    assert.ok(statSync(folder).isDirectory(), folder);
});

test('when the build has run, then the app bin is there and answers --help and --version', () => {
  assert.ok(existsSync(pkg.bin.app), pkg.bin.app);
  for (const flag of ['--help', '--version']) {
    const r = spawnSync(process.execPath, [pkg.bin.app, flag], { encoding: 'utf8', timeout: 30_000 });
    assert.is(r.status, 0, `${flag}: ${r.stderr}`);
    assert.ok(r.stdout.trim().length > 0, flag);
  }
});

test('when .ci/run is read, then it is executable, runs npm ci before the tests and exits non-zero on a failure', () => {
  accessSync('.ci/run', constants.X_OK);
  const script = read('.ci/run');
  const code = script
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');
  const install = code.indexOf('npm ci');
  const tests = code.search(/npm (run (--silent )?"?\$suite"?|test)/);
  assert.ok(install !== -1 && tests > install, 'npm ci, then the tests');
  assert.match(code, /test:browser test:stress|npm test/, "every suite, npm test's included");
  assert.match(code, /exit \$status|exit 1/);
});

test('when the README is read, then it gives the set-up, test and serve commands', () => {
  const readme = read('README.md');
  assert.match(readme, /npm ci/);
  assert.match(readme, /npm test/);
  assert.match(readme, /npm start|app serve/);
});

test('when the test runner runs one suite, then its output ends with "N passed, 0 failed"', () => {
  const r = spawnSync(process.execPath, ['scripts/run-tests.mjs', 'core/routing/requirement.test'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.is(r.status, 0, r.stdout + r.stderr);
  const last = r.stdout.trim().split('\n').pop();
  assert.match(last ?? '', /^[1-9]\d* passed, 0 failed$/);
});

test.run();
