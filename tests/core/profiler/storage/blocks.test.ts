import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BLOCK_BYTES,
  BLOCK_PROFILES,
  decodeBlock,
  encodeBlock,
} from '../../../../core/profiler/storage/record-codec.js';
import { nthToken, profile200, profile404 } from '../fixtures.js';
import { openTempStore, type TempStore } from './temp-store.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';

const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

/** Per record of the store (offset and length of a log), how many profiles its index lines put in it. */
function blockSizes(dir: string): number[] {
  const sizes = new Map<string, number>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.idx'))
    .sort()) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean)) {
      const row = JSON.parse(line) as unknown[];
      if (row[0] === 'seal') continue;
      const key = `${file}:${row[7]}:${row[8]}`;
      sizes.set(key, (sizes.get(key) ?? 0) + 1);
    }
  }
  return [...sizes.values()];
}

const test = suite('profiles written together share blocks, within bounds');
let store: TempStore;
test.after.each(async () => {
  await store.remove();
});

test(`when 100 small profiles are queued at once, then they go in blocks of at most ${BLOCK_PROFILES}, and each reads back`, async () => {
  store = await openTempStore();
  for (let i = 0; i < 100; i++)
    store.storage.writeBatch([storedEntry(profile200({ token: nthToken(i), time: T0 + i }))]);
  await store.storage.flush();
  const sizes = blockSizes(store.dir);
  assert.is(
    sizes.reduce((a, b) => a + b, 0),
    100,
  );
  assert.ok(Math.max(...sizes) <= BLOCK_PROFILES, String(sizes));
  assert.ok(sizes.length < 10, `100 profiles in ${sizes.length} blocks`);
  const reopened = await store.reopen();
  for (let i = 0; i < 100; i += 7) assert.is((await reopened.read(nthToken(i)))?.token, nthToken(i));
});

test(`when large profiles are queued at once, then a block holds no more than ${BLOCK_BYTES} bytes of them`, async () => {
  store = await openTempStore();
  const profiles = Array.from({ length: 12 }, (_, i) => profile404({ token: nthToken(i), time: T0 + i }));
  const chars = JSON.stringify(profiles[0]).length;
  assert.ok(chars > 10_000, `a 404 fixture is ${chars} characters`);
  for (const p of profiles) store.storage.writeBatch([storedEntry(p)]);
  await store.storage.flush();
  const sizes = blockSizes(store.dir);
  assert.ok(Math.max(...sizes) <= Math.max(1, Math.floor(BLOCK_BYTES / chars)), String(sizes));
  for (const p of profiles) assert.equal(await store.storage.read(p.token), p);
});

test('when a segment fills, then its last block stops where the segment is full', async () => {
  store = await openTempStore({ maxProfiles: 16 * 10 });
  for (let i = 0; i < 45; i++)
    store.storage.writeBatch([storedEntry(profile200({ token: nthToken(i), time: T0 + i }))]);
  await store.storage.flush();
  const perSegment = readdirSync(store.dir)
    .filter((f) => f.endsWith('.idx'))
    .sort()
    .map(
      (f) =>
        readFileSync(join(store.dir, f), 'utf8')
          .split('\n')
          .filter((l) => l && !l.startsWith('["seal"')).length,
    );
  assert.equal(perSegment, [10, 10, 10, 10, 5]);
});

test('when a block holds many entries, then it is brotli (format 4), and a few deflate with the dictionary (format 3); both read back whole', () => {
  const entries = Array.from(
    { length: BLOCK_PROFILES },
    (_, i) => storedEntry(profile200({ token: nthToken(i) })).json,
  );
  for (const [count, format] of [
    [1, 3],
    [15, 3],
    [16, 4],
    [BLOCK_PROFILES, 4],
  ] as const) {
    const block = encodeBlock(entries.slice(0, count));
    assert.is(block[2], format, `${count} entries`);
    const decoded = decodeBlock(block);
    assert.ok(decoded.ok, `${count} entries`);
    assert.equal((decoded as { entries: Buffer[] }).entries, entries.slice(0, count));
  }
});

test.run();
