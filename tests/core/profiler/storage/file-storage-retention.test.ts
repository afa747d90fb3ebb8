import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../../../core/profiler/profile.js';
import type { FileStorage } from '../../../../core/profiler/storage/file-storage.js';
import { nthToken, profile200, profile404 } from '../fixtures.js';
import { openTempStore, type TempStore } from './temp-store.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';
import { latestOf } from '../../../helpers/latest-of.js';

const test = suite('FileStorage retention, enforced as profiles are written');
let store: TempStore;
test.after.each(async () => {
  await store?.remove();
});

const folderBytes = (dir: string) => readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);

/** Writes as a busy server does: bursts, each drained before the next. */
async function writeMany(storage: FileStorage, count: number, make: (i: number) => Profile): Promise<void> {
  for (let i = 0; i < count; i++) {
    storage.writeBatch([storedEntry(make(i))]);
    if (i % 500 === 499) await storage.flush();
  }
  await storage.flush();
}

test('when 20,000 profiles are written with maxProfiles 1,000, then the store holds between 15/16 of it and 1,000, the newest among them', async () => {
  store = await openTempStore({ maxProfiles: 1000 });
  const start = Date.now() - 60_000;
  await writeMany(store.storage, 20_000, (i) => profile200({ token: nthToken(i), time: start + i, seed: i }));
  const { profiles } = store.storage.stats();
  assert.ok(profiles <= 1000 && profiles >= 1000 - 1000 / 16, `${profiles} profiles`);
  const listed = await store.storage.search({ limit: 100_000 });
  assert.is(listed.length, profiles);
  assert.is(listed[0].token, nthToken(19_999));
  assert.is((await store.storage.read(nthToken(19_999)))?.token, nthToken(19_999));
  assert.is(await store.storage.read(nthToken(0)), null);
  assert.ok(readdirSync(store.dir).length <= 2 * 17, `${readdirSync(store.dir).length} files`);
  assert.equal(store.warnings, []);
});

test('when many profiles are written with maxBytes 512 KB, then the folder stays under 512 KB and keeps the newest', async () => {
  store = await openTempStore({ maxBytes: 512 * 1024 });
  const start = Date.now() - 60_000;
  await writeMany(store.storage, 2_000, (i) => profile404({ token: nthToken(i), time: start + i, seed: i }));
  const bytes = folderBytes(store.dir);
  assert.ok(bytes <= 512 * 1024, `${bytes} bytes on disk`);
  assert.ok(bytes >= 512 * 1024 * 0.8, `${bytes} bytes on disk: nearly all of the bound is used`);
  assert.is(store.storage.stats().bytes, bytes);
  assert.is((await latestOf(store.storage))?.token, nthToken(1_999));
});

test('when a segment holds only profiles older than maxAgeMs, then the next write drops it', async () => {
  store = await openTempStore({ maxAgeMs: 3_600_000 });
  const now = Date.now();
  for (let i = 0; i < 5; i++)
    store.storage.writeBatch([storedEntry(profile200({ token: nthToken(i), time: now - 7_200_000 + i }))]);
  const storage = await store.reopen();
  assert.is((await storage.search({ limit: 10 })).length, 5, 'nothing is dropped on open');
  storage.writeBatch([storedEntry(profile200({ token: 'abcdef', time: now }))]);
  await storage.flush();
  assert.equal(
    (await storage.search({ limit: 10 })).map((r) => r.token),
    ['abcdef'],
  );
  assert.is(readdirSync(store.dir).filter((f) => f.endsWith('.log')).length, 1);
});

test('when pruned with keep across segments and reopened, then exactly the newest remain, and the fully removed segments are deleted', async () => {
  store = await openTempStore({ maxProfiles: 160 });
  const start = Date.now() - 60_000;
  await writeMany(store.storage, 150, (i) => profile200({ token: nthToken(i), time: start + i }));
  const segmentsBefore = store.storage.stats().segments;
  assert.is(await store.storage.prune({ keep: 25 }), 125);
  assert.ok(store.storage.stats().segments < segmentsBefore, 'segments of removed profiles only are deleted');
  const storage = await store.reopen();
  const listed = await storage.search({ limit: 1000 });
  assert.equal(
    listed.map((r) => r.token),
    Array.from({ length: 25 }, (_, i) => nthToken(149 - i)),
  );
  assert.is(await storage.read(nthToken(124)), null);
  assert.is(storage.stats().profiles, 25);
});

test.run();
