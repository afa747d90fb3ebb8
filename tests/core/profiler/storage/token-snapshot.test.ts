import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  readTokenSnapshot,
  TOKEN_SNAPSHOT_FILE,
  writeTokenSnapshot,
} from '../../../../core/profiler/storage/token-snapshot.js';
import { TokenBits, tokenNumber } from '../../../../core/profiler/storage/token-bits.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';
import { nthToken, profile200 } from '../fixtures.js';
import { openTempStore, type TempStore } from './temp-store.js';

// The stored tokens a store knows at opening (has(), which new tokens are checked against) come from
// the snapshot its last full load wrote, and from the index files for what it does not cover.
let store: TempStore | null = null;
test.after.each(async () => {
  await store?.remove();
  store = null;
});

async function write(from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++)
    store!.storage.writeBatch([storedEntry(profile200({ token: nthToken(i), time: Date.now() - 1_000 + i }))]);
  await store!.storage.flush();
}

/** Opens the store again and waits for its index, so that the snapshot is written. */
async function reopenAndLoad(): Promise<void> {
  await store!.reopen();
  await store!.storage.count({ limit: 1 });
  for (let i = 0; i < 50 && !readdirSync(store!.dir).includes(TOKEN_SNAPSHOT_FILE); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

const tokenAt = (t: Uint8Array, i: number) =>
  ((t[i * 3] << 16) | (t[i * 3 + 1] << 8) | t[i * 3 + 2]).toString(16).padStart(6, '0');

test('when a store is opened and loaded, then a snapshot holds every stored token by segment', async () => {
  store = await openTempStore();
  await write(0, 30);
  await reopenAndLoad();
  const snapshot = readTokenSnapshot(store.dir);
  const tokens = [...snapshot.segments.values()].flatMap((s) =>
    Array.from({ length: s.tokens.length / 3 }, (_, i) => tokenAt(s.tokens, i)),
  );
  const expected = Array.from({ length: 30 }, (_, i) => nthToken(i)).sort();
  assert.equal(tokens.sort(), expected);
  const all = new TokenBits();
  all.addBytes(snapshot.all!);
  assert.is(all.size, 30);
  for (const token of expected) assert.ok(all.has(tokenNumber(token)), token);
});

test('when a store is closed, then the snapshot holds what it wrote since it opened too', async () => {
  store = await openTempStore();
  await write(0, 30);
  await store.storage.close();
  const tokens = [...readTokenSnapshot(store.dir).segments.values()].flatMap((s) =>
    Array.from({ length: s.tokens.length / 3 }, (_, i) => tokenAt(s.tokens, i)),
  );
  assert.equal(tokens.sort(), Array.from({ length: 30 }, (_, i) => nthToken(i)).sort());
});

test('when a store is opened again, then has() knows the snapshot’s tokens and those the index files gained since', async () => {
  store = await openTempStore();
  await write(0, 20);
  await reopenAndLoad();
  // A token the snapshot alone names: known only if the snapshot is read.
  const snapshot = [...readTokenSnapshot(store.dir).segments.values()];
  snapshot[0] = { ...snapshot[0], tokens: Buffer.concat([snapshot[0].tokens, Buffer.from([0xfe, 0xed, 0x01])]) };
  writeTokenSnapshot(store.dir, snapshot);
  await write(20, 30);
  await store.reopen();
  assert.ok(store.storage.has('feed01'), 'from the snapshot');
  for (let i = 0; i < 30; i++) assert.ok(store.storage.has(nthToken(i)), nthToken(i));
  assert.not.ok(store.storage.has('feed02'));
});

test('when an index file is not the one the snapshot read, then its tokens are read from the file', async () => {
  store = await openTempStore();
  await write(0, 20);
  await reopenAndLoad();
  const snapshot = [...readTokenSnapshot(store.dir).segments.values()].map((s) => ({
    ...s,
    mtime: '1',
    head: Buffer.from('another file').toString('base64'),
    tokens: Buffer.from([0xfe, 0xed, 0x01]),
  }));
  writeTokenSnapshot(store.dir, snapshot);
  await reopenAndLoad();
  for (let i = 0; i < 20; i++) assert.ok(store.storage.has(nthToken(i)), nthToken(i));
  // Until the index is loaded, has() knew the snapshot's token too: a free one taken for stored, never the reverse.
  assert.not.ok(store.storage.has('feed01'), 'loaded, the index alone answers');
  const written = [...readTokenSnapshot(store.dir).segments.values()];
  assert.not.ok(
    written.some((s) => s.tokens.length === 3),
    'the next snapshot holds what the file holds',
  );
});

test('when the snapshot is damaged, then the index files are read and a whole one is written again', async () => {
  store = await openTempStore();
  await write(0, 20);
  await reopenAndLoad();
  const whole = readFileSync(join(store.dir, TOKEN_SNAPSHOT_FILE));
  writeFileSync(join(store.dir, TOKEN_SNAPSHOT_FILE), whole.subarray(0, whole.length - 2));
  assert.is(readTokenSnapshot(store.dir).segments.size, 0, 'a cut snapshot is not read');
  await reopenAndLoad();
  for (let i = 0; i < 20; i++) assert.ok(store.storage.has(nthToken(i)), nthToken(i));
  assert.ok(readTokenSnapshot(store.dir).segments.size > 0, 'written again');
});

test.run();
