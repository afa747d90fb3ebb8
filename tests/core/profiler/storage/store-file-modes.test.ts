import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { nthToken, profile200 } from '../fixtures.js';
import { openTempStore, type TempStore } from './temp-store.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

const test = suite('the profile store is readable by its owner only');
let store: TempStore;
let umask: number;
/** a folder a test made itself, removed after it */
let root: string | null = null;
test.before.each(() => {
  umask = process.umask(0);
});
test.after.each(async () => {
  process.umask(umask);
  await store.remove();
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

test('when a store is made and written, pruned, re-indexed and closed under umask 000, then its folder is 0700 and every file 0600', async () => {
  store = await openTempStore();
  for (let i = 0; i < 20; i++)
    store.storage.writeBatch([storedEntry(profile200({ token: nthToken(i), time: Date.now() - 1000 + i }))]);
  await store.storage.flush();
  assert.is(await store.storage.prune({ keep: 10 }), 10);
  await store.storage.rebuildIndex();
  await store.reopen();
  store.storage.writeBatch([storedEntry(profile200({ token: nthToken(100) }))]);
  await store.storage.flush();
  assert.is(mode(store.dir), '700');
  const files = readdirSync(store.dir);
  for (const ext of ['.log', '.idx', 'cutoff.json'])
    assert.ok(
      files.some((file) => file.endsWith(ext)),
      `a ${ext} file: ${files.join(', ')}`,
    );
  for (const file of files) assert.is(mode(join(store.dir, file)), '600', file);
});

test('when an older version left the folder 0755, then opening the store tightens it to 0700', async () => {
  root = mkdtempSync(join(tmpdir(), 'appkernel-store-modes-'));
  const dir = join(root, 'profiler');
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  store = await openTempStore({ dir });
  assert.is(mode(dir), '700');
});

test('when the folder was removed while the server writes, then the one made again is 0700 too', async () => {
  store = await openTempStore();
  store.storage.writeBatch([storedEntry(profile200({ token: nthToken(1) }))]);
  await store.storage.flush();
  rmSync(store.dir, { recursive: true, force: true });
  store.storage.writeBatch([storedEntry(profile200({ token: nthToken(2) }))]);
  await store.storage.flush();
  assert.is(mode(store.dir), '700');
  for (const file of readdirSync(store.dir)) assert.is(mode(join(store.dir, file)), '600', file);
});

test.run();
