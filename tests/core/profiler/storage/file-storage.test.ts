import { mkdirSync, readdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { nthToken, profile200, profile404 } from '../fixtures.js';
import { runProfileStorageContract } from './profile-storage.contract.js';
import { openTempStore, startWriterProcess, type TempStore } from './temp-store.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';
import { latestOf } from '../../../helpers/latest-of.js';

runProfileStorageContract('FileStorage', async () => {
  const store = await openTempStore();
  return { storage: store.storage, remove: () => store.remove() };
});

runProfileStorageContract('FileStorage compressing on the main thread', async () => {
  const store = await openTempStore({ compressInWorker: false });
  return { storage: store.storage, remove: () => store.remove() };
});

/** Recent enough for the default 7-day retention. */
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

// ---

const files = suite('FileStorage on disk');
let store: TempStore;
files.before.each(async () => {
  store = await openTempStore();
});
files.after.each(async () => {
  await store.remove();
});

files('when the store folder is missing, then opening creates it', async () => {
  assert.ok(statSync(store.dir).isDirectory());
});

files('when reopened, then every profile is listed and reads back equal', async () => {
  const profiles = Array.from({ length: 50 }, (_, i) =>
    (i % 2 ? profile404 : profile200)({ token: nthToken(i), time: T0 + i, seed: i }),
  );
  for (const profile of profiles) store.storage.writeBatch([storedEntry(profile)]);
  const storage = await store.reopen();
  assert.is((await storage.search({ limit: 100 })).length, 50);
  for (const profile of profiles) assert.equal(await storage.read(profile.token), JSON.parse(JSON.stringify(profile)));
  assert.equal(store.warnings, []);
});

files(
  'when a 404 and a 200 profile are stored, then they take at most 3.5 KB and 1.5 KB on disk, index line included',
  async () => {
    store.storage.writeBatch([storedEntry(profile404({ token: 'aaaaaa', time: T0 }))]);
    await store.storage.flush();
    const after404 = store.storage.stats().bytes;
    store.storage.writeBatch([storedEntry(profile200({ token: 'bbbbbb', time: T0 + 1 }))]);
    await store.storage.flush();
    const bytes200 = store.storage.stats().bytes - after404;
    assert.ok(after404 <= 3.5 * 1024, `404: ${after404} bytes`);
    assert.ok(bytes200 <= 1.5 * 1024, `200: ${bytes200} bytes`);
    const onDisk = readdirSync(store.dir).reduce((n, f) => n + statSync(join(store.dir, f)).size, 0);
    assert.is(onDisk, store.storage.stats().bytes, 'stats().bytes is what the folder holds');
  },
);

files('when the write queue is full, then further profiles are dropped, counted, and one warning says so', async () => {
  const storage = await store.reopenBehindIntake(10);
  for (let i = 0; i < 50; i++) storage.writeBatch([storedEntry(profile200({ token: nthToken(i), time: T0 + i }))]);
  assert.is(storage.stats().dropped, 40);
  await storage.flush();
  assert.equal({ profiles: storage.stats().profiles, queued: storage.stats().queued }, { profiles: 10, queued: 0 });
  assert.is(store.warnings.length, 1);
  assert.match(store.warnings[0], /queue is full \(10 profiles\)/);
});

files('when the store folder is deleted while in use, then the next write recreates it and warns', async () => {
  store.storage.writeBatch([storedEntry(profile200({ token: '000001', time: T0 }))]);
  await store.storage.flush();
  rmSync(store.dir, { recursive: true });
  store.storage.writeBatch([storedEntry(profile200({ token: '000002', time: T0 + 1 }))]);
  await store.storage.flush();
  assert.ok(statSync(store.dir).isDirectory());
  assert.match(store.warnings.join('\n'), /was removed while in use: created it again/);
  assert.is((await store.storage.read('000002'))?.token, '000002');
  assert.is(await store.storage.read('000001'), null);
  assert.equal(
    (await store.storage.search({ limit: 10 })).map((r) => r.token),
    ['000002'],
  );
});

files(
  'when the store folder is deleted, then search lists nothing and read finds nothing, without an error',
  async () => {
    store.storage.writeBatch([storedEntry(profile200({ token: '000001', time: T0 }))]);
    await store.storage.flush();
    rmSync(store.dir, { recursive: true });
    assert.equal(await store.storage.search({ limit: 10 }), []);
    assert.is(await store.storage.read('000001'), null);
    assert.not.ok(store.storage.has('000001'));
  },
);

files(
  'when a write fails, then the batch is dropped with a warning, counted, and later writes are stored',
  async () => {
    const intake = await store.reopenBehindIntake();
    intake.writeBatch([storedEntry(profile200({ token: '000001', time: T0 }))]);
    await intake.flush();
    const log = readdirSync(store.dir).find((f) => f.endsWith('.log'))!;
    unlinkSync(join(store.dir, log));
    mkdirSync(join(store.dir, log));
    for (let i = 2; i <= 4; i++) intake.writeBatch([storedEntry(profile200({ token: nthToken(i), time: T0 + i }))]);
    await intake.flush();
    assert.is(intake.stats().dropped, 3);
    assert.match(store.warnings.join('\n'), /Could not store 3 profiles .*EISDIR.*serving goes on/);
    intake.writeBatch([storedEntry(profile200({ token: '000005', time: T0 + 5 }))]);
    await intake.flush();
    assert.is((await intake.read('000005'))?.token, '000005');
  },
);

files(
  'when two stores share a folder, then each sees what the other writes and prunes, without reopening',
  async () => {
    const other = await openTempStore({ dir: store.dir });
    try {
      store.storage.writeBatch([storedEntry(profile200({ token: '0000a1', time: T0 }))]);
      await store.storage.flush();
      other.storage.writeBatch([storedEntry(profile404({ token: '0000b1', time: T0 + 1 }))]);
      await other.storage.flush();
      assert.equal(
        (await store.storage.search({ limit: 10 })).map((r) => r.token),
        ['0000b1', '0000a1'],
      );
      assert.equal(
        (await other.storage.search({ limit: 10 })).map((r) => r.token),
        ['0000b1', '0000a1'],
      );
      assert.is((await store.storage.read('0000b1'))?.status, 404);
      store.storage.writeBatch([storedEntry(profile200({ token: '0000a2', time: T0 + 2 }))]);
      await store.storage.flush();
      assert.is((await latestOf(other.storage))?.token, '0000a2');
      assert.is(await other.storage.prune({ keep: 1 }), 2);
      assert.equal(
        (await store.storage.search({ limit: 10 })).map((r) => r.token),
        ['0000a2'],
      );
      assert.is(await store.storage.read('0000a1'), null);
    } finally {
      await other.storage.close();
    }
  },
);

files(
  'when another process writes, then this one lists its profiles as they land, each one reading whole',
  async () => {
    const child = await startWriterProcess(store.dir);
    try {
      let seen = 0;
      for (let round = 0; round < 20; round++) {
        const rows = await store.storage.search({ limit: 30 });
        for (const row of rows) assert.is((await store.storage.read(row.token))?.token, row.token);
        assert.ok(store.storage.stats().profiles >= seen, 'the list only grows');
        seen = store.storage.stats().profiles;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(seen >= 50, `${seen} profiles seen`);
      assert.equal(store.warnings, []);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  },
);

files.run();
