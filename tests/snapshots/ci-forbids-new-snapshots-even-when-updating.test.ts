import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { matchSnapshot, SnapshotMissingError } from '../../snapshots/index.js';
import { runApp } from '../helpers/cli.js';

// The README and `app snapshot --help` ("--update ... with CI=true a missing one fails")
// say that under CI=true a missing snapshot fails instead of being written. A CI job that also sets
// UPDATE_SNAPSHOTS=1 (or passes --update) must not write, and so pass, a snapshot no one has read.

const page = (heading: string) => `<html><head><title>Demo</title></head><body><h1>${heading}</h1></body></html>`;

const test = suite('CI=true forbids writing a missing snapshot, even when updating');
let dir: string;

test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-snap-ci-update-'));
});
test.after.each(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('when matchSnapshot runs with ci and update and the snapshot is missing, then it throws APP_ERR_SNAPSHOT_MISSING and writes nothing', () => {
  try {
    matchSnapshot('new page', page('Hello'), { dir, ci: true, update: true });
    assert.unreachable('a missing snapshot under CI should fail');
  } catch (error) {
    if (!(error instanceof SnapshotMissingError)) throw error;
    assert.is(error.code, 'APP_ERR_SNAPSHOT_MISSING');
  }
  assert.equal(readdirSync(dir), []);
});

test('when matchSnapshot runs with ci and update and the snapshot exists but differs, then it is rewritten (updating existing files stays allowed)', () => {
  const file = join(dir, 'ci-forbids-new-snapshots-even-when-updating.page.snap.txt');
  writeFileSync(file, 'title "Demo"\nh1 "Hello"\n');
  matchSnapshot('page', page('Bye'), { dir, ci: true, update: true });
  assert.is(readFileSync(file, 'utf8'), 'title "Demo"\nh1 "Bye"\n');
});

test('when `app snapshot --update` runs with CI=true and a snapshot is missing, then it exits 1 saying so, and writes nothing', async () => {
  const r = await runApp(['snapshot', '/', '--update', '--dir', 'snaps'], {
    cwd: dir,
    env: { CI: 'true', UPDATE_SNAPSHOTS: '' },
  });
  assert.is(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /^missing +\/ /m);
  assert.not.ok(existsSync(join(dir, 'snaps', 'index.snap.txt')));
});

test('when `app snapshot` runs with CI=true and UPDATE_SNAPSHOTS=1 and a snapshot is missing, then it exits 1, and writes nothing', async () => {
  const r = await runApp(['snapshot', '/hello/world', '--dir', 'snaps'], {
    cwd: dir,
    env: { CI: 'true', UPDATE_SNAPSHOTS: '1' },
  });
  assert.is(r.code, 1, r.stdout + r.stderr);
  assert.not.ok(existsSync(join(dir, 'snaps', 'hello__world.snap.txt')));
});

test.run();
