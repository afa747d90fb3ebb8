import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openFileStorage } from '../../../../core/profiler/storage/file-storage.js';
import { summarize } from '../../../../core/profiler/storage/index-line.js';
import { SegmentCatalog } from '../../../../core/profiler/storage/segment-catalog.js';
import { nthToken, profile200 } from '../fixtures.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';
import { latestOf } from '../../../helpers/latest-of.js';

// A store opened with its index still loading answers has() for every stored token, waits for the
// index before a search, and lists what this process stores meanwhile as the last to arrive.

const test = suite('the file store index loads in the background');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
let dir: string;

/** Three segments (a store opened, written and closed three times) of four profiles each, one second apart. */
async function threeSegments(): Promise<string[]> {
  const tokens: string[] = [];
  for (let s = 0; s < 3; s++) {
    const storage = await openFileStorage({ dir, onWarning: () => {} });
    for (let i = 0; i < 4; i++) {
      const n = s * 4 + i;
      storage.writeBatch([storedEntry(profile200({ token: nthToken(n), time: T0 + n * 1000 }))]);
      tokens.push(nthToken(n));
    }
    await storage.close();
  }
  return tokens;
}

test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-index-loading-'));
});
test.after.each(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('when the catalog loads a segment per turn, then at first only the tokens are read, and meanwhile has() knows every stored token, and a record indexed then arrives last', async () => {
  const tokens = await threeSegments();
  const catalog = new SegmentCatalog(dir, () => {}, false);
  void catalog.loadInBackground({ sliceMs: 0, afterMs: 0 });
  const loaded = catalog.loaded();
  assert.ok(catalog.isLoading, 'still loading after its first turn');
  assert.ok(catalog.index.size < tokens.length, 'not every segment is read yet');
  for (const token of tokens) assert.ok(catalog.has(token), token);
  assert.not.ok(catalog.has('fffffe'));
  const late = profile200({ token: 'fffffe', time: T0 - 60_000 });
  catalog.indexRecord(summarize(late), '000001-1', 0, 10, 0);
  assert.ok(catalog.has('fffffe'), 'known while it waits to be indexed');
  catalog.refresh();
  await loaded;
  assert.not.ok(catalog.isLoading);
  assert.is(catalog.index.size, tokens.length + 1);
  assert.equal(
    catalog.index.search({ limit: 1, order: 'arrival' }).map((row) => row.token),
    ['fffffe'],
  );
  assert.equal(
    catalog.index.search({ limit: 13 }).map((row) => row.token),
    [...tokens].reverse().concat('fffffe'),
  );
});

test('when finishLoading() is called while loading, then the whole index is there at once', async () => {
  const tokens = await threeSegments();
  const catalog = new SegmentCatalog(dir, () => {}, false);
  void catalog.loadInBackground({ sliceMs: 0, afterMs: 60_000 });
  assert.ok(catalog.isLoading, 'waiting to start');
  catalog.finishLoading();
  assert.not.ok(catalog.isLoading);
  assert.is(catalog.index.size, tokens.length);
  await catalog.loaded();
});

test('when a store is opened on a folder of profiles, then its first search, count and read see them all, and has() knows them at once', async () => {
  const tokens = await threeSegments();
  const storage = await openFileStorage({ dir, onWarning: () => {} });
  try {
    for (const token of tokens) assert.ok(storage.has(token), token);
    assert.equal(
      (await storage.search({ limit: 20 })).map((row) => row.token),
      [...tokens].reverse(),
    );
    assert.is(await storage.count({ limit: 1 }), tokens.length);
    assert.is((await storage.read(tokens[0]))?.token, tokens[0]);
    storage.writeBatch([storedEntry(profile200({ token: 'fffffe', time: T0 - 60_000 }))]);
    await storage.flush();
    assert.is((await latestOf(storage))?.token, 'fffffe');
  } finally {
    await storage.close();
  }
});

test.run();
