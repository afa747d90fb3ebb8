import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const SUITE = resolve(process.cwd(), 'dist/tests/snapshots/one-page-suite.js');
const FILE = 'one-page-suite.page.snap.txt';

const test = suite('snapshot modes, seen from a test run (a suite in a child process, as npm test runs it)');
let dir: string;

test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-snap-modes-'));
});
test.after.each(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the one-page suite; UPDATE_SNAPSHOTS and CI are off unless given, whatever this run was started with. */
function runSuite(heading: string, env: { UPDATE_SNAPSHOTS?: string; CI?: string } = {}) {
  const r = spawnSync(process.execPath, ['--enable-source-maps', SUITE], {
    env: {
      ...process.env,
      FORCE_COLOR: '0',
      UPDATE_SNAPSHOTS: '',
      CI: '',
      ...env,
      HEADING: heading,
      SNAPSHOT_DIR: dir,
    },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

test('when the heading changes, then the run fails with a readable diff of that heading, and the file is kept', () => {
  assert.is(runSuite('Error 404 Not Found').code, 0);
  const stored = readFileSync(join(dir, FILE), 'utf8');
  const r = runSuite('Error 404 Page Not Found');
  assert.is(r.code, 1, r.output);
  assert.ok(r.output.includes('\n- h1 "Error 404 Not Found"\n+ h1 "Error 404 Page Not Found"\n'), r.output);
  assert.ok(r.output.includes('UPDATE_SNAPSHOTS=1'), 'the message says how to accept the change');
  assert.is(readFileSync(join(dir, FILE), 'utf8'), stored);
});

test('when UPDATE_SNAPSHOTS=1, then the run passes and the snapshot holds the new heading', () => {
  assert.is(runSuite('Error 404 Not Found').code, 0);
  const r = runSuite('Error 404 Page Not Found', { UPDATE_SNAPSHOTS: '1' });
  assert.is(r.code, 0, r.output);
  assert.match(r.output, /snapshot updated: .*one-page-suite\.page\.snap\.txt/);
  assert.ok(readFileSync(join(dir, FILE), 'utf8').includes('h1 "Error 404 Page Not Found"'));
  assert.is(runSuite('Error 404 Page Not Found').code, 0, 'and the next plain run passes');
});

test('when CI=true and the snapshot is missing, then the run fails with APP_ERR_SNAPSHOT_MISSING and writes nothing', () => {
  const r = runSuite('Error 404 Not Found', { CI: 'true' });
  assert.is(r.code, 1, r.output);
  assert.match(r.output, /Snapshot "page" is missing .* CI=true forbids writing it/);
  assert.equal(readdirSync(dir), []);
});

test('when CI=true and the snapshot exists and matches, then the run passes', () => {
  assert.is(runSuite('Error 404 Not Found').code, 0);
  assert.ok(existsSync(join(dir, FILE)));
  assert.is(runSuite('Error 404 Not Found', { CI: 'true' }).code, 0);
});

test.run();
