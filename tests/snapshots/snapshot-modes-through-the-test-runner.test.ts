import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// snapshot-modes.test.ts runs the one-page suite with node directly; here it goes through
// scripts/run-tests.mjs, the runner `npm test` calls after its build, so that what the acceptance
// names holds end to end: the runner passes UPDATE_SNAPSHOTS and CI through, prints the diff of a
// failing snapshot, and ends with "N passed, N failed" and exit 1.

const RUNNER = resolve(process.cwd(), 'scripts/run-tests.mjs');
const FILE = 'one-page-suite.page.snap.txt';

const test = suite('snapshot modes through the npm test runner (scripts/run-tests.mjs)');
let dir: string;

test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-snap-runner-'));
});
test.after.each(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs only the one-page suite through the runner; UPDATE_SNAPSHOTS and CI are off unless given. */
function runTests(heading: string, env: { UPDATE_SNAPSHOTS?: string; CI?: string } = {}) {
  const r = spawnSync(process.execPath, [RUNNER, 'snapshots/one-page-suite'], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      UPDATE_SNAPSHOTS: '',
      CI: '',
      ...env,
      TEST_PATTERN: '^one-page-suite\\.js$',
      HEADING: heading,
      SNAPSHOT_DIR: dir,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const output = `${r.stdout}${r.stderr}`;
  return { code: r.status, output, summary: /^(\d+) passed, (\d+) failed$/m.exec(output)?.[0] };
}

test('when the page is new, then the runner passes it and the snapshot is written', () => {
  const r = runTests('Error 404 Not Found');
  assert.is(r.code, 0, r.output);
  assert.is(r.summary, '1 passed, 0 failed', r.output);
  assert.ok(readFileSync(join(dir, FILE), 'utf8').includes('h1 "Error 404 Not Found"'));
});

test('when the heading changes, then the runner exits 1 with "0 passed, 1 failed" and prints a readable diff of that heading', () => {
  assert.is(runTests('Error 404 Not Found').code, 0);
  const stored = readFileSync(join(dir, FILE), 'utf8');
  const r = runTests('Error 404 Page Not Found');
  assert.is(r.code, 1, r.output);
  assert.is(r.summary, '0 passed, 1 failed', r.output);
  assert.ok(r.output.includes('\n- h1 "Error 404 Not Found"\n+ h1 "Error 404 Page Not Found"\n'), r.output);
  assert.is(readFileSync(join(dir, FILE), 'utf8'), stored, 'a failing run leaves the snapshot alone');
});

test('when UPDATE_SNAPSHOTS=1, then the runner passes and the snapshot holds the new heading', () => {
  assert.is(runTests('Error 404 Not Found').code, 0);
  const r = runTests('Error 404 Page Not Found', { UPDATE_SNAPSHOTS: '1' });
  assert.is(r.code, 0, r.output);
  assert.is(r.summary, '1 passed, 0 failed', r.output);
  assert.ok(readFileSync(join(dir, FILE), 'utf8').includes('h1 "Error 404 Page Not Found"'));
  assert.is(runTests('Error 404 Page Not Found').code, 0, 'and the next plain run passes');
});

test('when CI=true and the snapshot is missing, then the runner exits 1 naming it, and writes nothing', () => {
  const r = runTests('Error 404 Not Found', { CI: 'true' });
  assert.is(r.code, 1, r.output);
  assert.is(r.summary, '0 passed, 1 failed', r.output);
  assert.match(r.output, /Snapshot "page" is missing .* CI=true forbids writing it/);
  assert.equal(readdirSync(dir), []);
  assert.not.ok(existsSync(join(dir, FILE)));
});

test.run();
