import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../core/profiler/profile.js';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';
import { runAppInProcess } from '../helpers/cli.js';
import { fullProfile } from '../panels/full-profile.js';

// A profile read from a store may hold a panel of another shape (a planted row, a record of a form
// this build does not know): the CLI's commands say so in one line, never a TypeError's own words alone.

const test = suite('the CLI on a stored profile whose panels hold damaged data');
let dir: string;

function damaged(token: string, damage: (collectors: Record<string, unknown>) => void): Profile {
  const profile = fullProfile();
  profile.token = token;
  damage(profile.collectors as unknown as Record<string, unknown>);
  return profile;
}

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-damaged-'));
  const storage = await openFileStorage({ dir });
  storage.writeBatch([
    storedEntry(damaged('dead01', (c) => ((c.events as Record<string, unknown>).events = null))),
    storedEntry(damaged('dead02', (c) => ((c.request as Record<string, unknown>).headers = { accept: 5 }))),
  ]);
  await storage.close();
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('when a panel of the profile is damaged, then `profiles show --panel` prints the header and says that panel is damaged', async () => {
  const r = await runAppInProcess(['profiles', 'show', 'dead01', '--panel', 'events', '--store', dir]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Token +dead01$/m);
  assert.match(
    r.stdout,
    /^Events\n-+\nThe stored data of the Events panel is damaged or of a form this appkernel does not know, so it cannot be shown \(.+\)\.$/m,
  );
});

test('when the recorded request is damaged, then export and replay refuse it in one line naming the profile', async () => {
  for (const args of [
    ['profiles', 'export', 'dead02', '--curl'],
    ['replay', 'dead02', '--target', 'http://127.0.0.1:9'],
  ]) {
    const r = await runAppInProcess([...args, '--store', dir]);
    assert.is(r.code, 1, `${args.join(' ')}: ${r.stdout}`);
    assert.match(
      r.stderr,
      /^app: The request recorded in profile "dead02" cannot be sent or exported: stored data is damaged or of a form this appkernel does not know \(.+\)\.\n$/,
    );
  }
});

test('when one of two profiles is damaged, then diff says they cannot be compared', async () => {
  const r = await runAppInProcess(['profiles', 'diff', 'dead01', 'dead02', '--store', dir]);
  assert.is(r.code, 1, r.stdout);
  assert.match(r.stderr, /^app: Profiles "dead01" and "dead02" cannot be compared: stored data is damaged/);
});

test.run();
