import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const test = suite(
  'the test runner (scripts/run-tests.mjs): several suites at a time, none left over from a moved test file',
);

const RUNNER = resolve(process.cwd(), 'scripts/run-tests.mjs');
const run = (filter: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [RUNNER, filter], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ...env },
  });

test('when TEST_JOBS is set, then the runner says how many suites it runs and how many at a time', () => {
  const r = run('/core/routing/requirement.test', { TEST_JOBS: '3' });
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout.split('\n')[0], /^1 suites, 3 at a time$/);
});

test('when a compiled suite has no test file left (moved or deleted since the last build), then it is not run', () => {
  const compiled = resolve(process.cwd(), 'dist/tests/core/routing/requirement.test.js');
  const stale = resolve(process.cwd(), `dist/tests/core/routing/moved-away-${process.pid}.test.js`);
  copyFileSync(compiled, stale);
  try {
    const r = run(`/core/routing/moved-away-${process.pid}`);
    assert.is(r.status, 1, r.stdout);
    assert.match(r.stdout, /^0 suites/);
    assert.match(r.stdout.trim().split('\n').pop() ?? '', /^0 passed, 1 failed$/);
  } finally {
    rmSync(stale, { force: true });
  }
});

test('when suites start profiling servers, then their instance key is kept in a state folder of the run, not in the home folder', () => {
  const home = mkdtempSync(join(tmpdir(), 'appkernel-runner-home-'));
  try {
    const r = run('/core/profiler/handoff/worker-builds-the-thread-profile', {
      HOME: home,
      XDG_STATE_HOME: '',
      APPKERNEL_STATE_DIR: '',
    });
    assert.is(r.status, 0, r.stdout + r.stderr);
    assert.not.ok(existsSync(join(home, '.local')), 'nothing was written under the home folder');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('when several suites ran, then the runner names the slowest and those that took the most CPU, with their sum', () => {
  const r = run('/render/text/profile-list');
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^✔ render\/text\/profile-list-text\.test\.js \(\d+\) \d+\.\d s, CPU \d+\.\d s$/m);
  assert.match(r.stdout, /^Most CPU \(the suite and the processes it started\):$/m);
  assert.match(r.stdout, /^ +\d+ s {2}in all, over \d+ suites$/m);
});

test.run();
