import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AppError } from '../../../../core/errors.js';
import { profile200, profile404 } from '../fixtures.js';
import { openTempStore, startWriterProcess, type TempStore } from './temp-store.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';
import { latestOf } from '../../../helpers/latest-of.js';

const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const TOKENS = ['00000a', '00000b', '00000c'];

/** A pid no process has: one that just ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

const segmentFiles = (dir: string, ext: 'log' | 'idx') =>
  readdirSync(dir)
    .filter((f) => f.endsWith(`.${ext}`))
    .map((f) => join(dir, f));

/**
 * Three profiles in one segment whose writer died before sealing it, as after
 * a `kill -9`: written by a store in another folder, copied under a dead pid.
 */
async function crashedStore(): Promise<TempStore> {
  const source = await openTempStore();
  TOKENS.forEach((token, i) =>
    source.storage.writeBatch([storedEntry((i === 1 ? profile404 : profile200)({ token, time: T0 + i, seed: i }))]),
  );
  await source.storage.flush();
  const target = mkdtempSync(join(tmpdir(), 'appkernel-crashed-'));
  const pid = deadPid();
  for (const file of readdirSync(source.dir))
    copyFileSync(join(source.dir, file), join(target, file.replace(/-\d+\./, `-${pid}.`)));
  await source.remove();
  const store = await openTempStore({ dir: target });
  store.warnings.length = 0;
  return store;
}

const expectAllThree = async (store: TempStore) => {
  assert.equal(
    (await store.storage.search({ limit: 10 })).map((r) => r.token),
    [...TOKENS].reverse(),
  );
  for (const token of TOKENS) assert.is((await store.storage.read(token))?.token, token);
};

const test = suite('FileStorage after crashes and damage');
let store: TempStore;
test.after.each(async () => {
  await store.storage.close();
  rmSync(store.dir, { recursive: true, force: true });
});

test('when a stored record is damaged, then read() throws APP_ERR_PROFILER_STORE_CORRUPT naming the token and the problem; the others still read', async () => {
  store = await openTempStore();
  for (const [i, token] of TOKENS.entries()) {
    store.storage.writeBatch([storedEntry(profile404({ token, time: T0 + i, seed: i }))]);
    await store.storage.flush();
  }
  await store.storage.close();
  const [log] = segmentFiles(store.dir, 'log');
  const bytes = readFileSync(log);
  const second = JSON.parse(readFileSync(segmentFiles(store.dir, 'idx')[0], 'utf8').split('\n')[1]) as number[];
  bytes[second[7] + 40] ^= 0xff;
  writeFileSync(log, bytes);
  const storage = await store.reopen();
  const error = await storage.read(TOKENS[1]).then(
    () => null,
    (e: unknown) => e,
  );
  assert.instance(error, AppError);
  assert.is((error as AppError).code, 'APP_ERR_PROFILER_STORE_CORRUPT');
  assert.match((error as AppError).message, `Profile "${TOKENS[1]}"`);
  assert.match((error as AppError).message, 'checksum mismatch');
  assert.is((await storage.read(TOKENS[0]))?.token, TOKENS[0]);
  assert.is((await storage.read(TOKENS[2]))?.token, TOKENS[2]);
  assert.is((await storage.search({ limit: 10 })).length, 3, 'the list reads the index only');
});

test('when profiles written together share a block and it is damaged, then each of them reads as corrupt, and the list still shows them', async () => {
  store = await openTempStore();
  TOKENS.forEach((token, i) => store.storage.writeBatch([storedEntry(profile404({ token, time: T0 + i, seed: i }))]));
  await store.storage.close();
  const lines = readFileSync(segmentFiles(store.dir, 'idx')[0], 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown[]);
  assert.equal(
    lines.slice(0, 3).map((l) => [l[7], l[9]]),
    [
      [0, 0],
      [0, 1],
      [0, 2],
    ],
    'one record, three slots',
  );
  const [log] = segmentFiles(store.dir, 'log');
  const bytes = readFileSync(log);
  bytes[40] ^= 0xff;
  writeFileSync(log, bytes);
  const storage = await store.reopen();
  for (const token of TOKENS) {
    const error = await storage.read(token).then(
      () => null,
      (e: unknown) => e,
    );
    assert.match((error as AppError).message, new RegExp(`Profile "${token}".*checksum mismatch`));
  }
  assert.is((await storage.search({ limit: 10 })).length, 3);
});

test('when the writer died with a half-written record at the end, then opening ignores it with a warning and keeps the whole ones', async () => {
  store = await crashedStore();
  const [log] = segmentFiles(store.dir, 'log');
  appendFileSync(log, readFileSync(log).subarray(0, 300));
  await store.reopen();
  await expectAllThree(store);
  assert.is(store.warnings.length, 1);
  assert.match(
    store.warnings[0],
    /ignored 300 bytes of a half-written or damaged record; its index was rebuilt \(3 profiles\)/,
  );
  await store.reopen();
  assert.is(store.warnings.length, 1, 'the repaired segment opens without a warning');
});

test('when the writer died after writing records but before indexing them, then opening recovers them', async () => {
  store = await crashedStore();
  const [idx] = segmentFiles(store.dir, 'idx');
  writeFileSync(idx, readFileSync(idx, 'utf8').split('\n')[0] + '\n');
  await store.reopen();
  await expectAllThree(store);
  assert.match(store.warnings.join('\n'), /recovered 2 profiles from the segment/);
});

test('when the writer died in the middle of an index line, then the cut line is reported and its record recovered', async () => {
  store = await crashedStore();
  const [idx] = segmentFiles(store.dir, 'idx');
  const text = readFileSync(idx, 'utf8');
  writeFileSync(idx, text.slice(0, text.length - 20));
  await store.reopen();
  await expectAllThree(store);
  assert.match(store.warnings.join('\n'), /its last index line is cut short/);
});

test('when an index line is garbled, then it is skipped with a warning, its record found again, and the index repaired', async () => {
  store = await openTempStore();
  TOKENS.forEach((token, i) => store.storage.writeBatch([storedEntry(profile200({ token, time: T0 + i }))]));
  await store.storage.close();
  const [idx] = segmentFiles(store.dir, 'idx');
  const lines = readFileSync(idx, 'utf8').split('\n');
  lines[1] = '["00000b",200,"127.0.0.1"\u0000garbage';
  writeFileSync(idx, lines.join('\n'));
  await store.reopen();
  await expectAllThree(store);
  assert.match(store.warnings.join('\n'), /index line 2 is garbled/);
  const warned = store.warnings.length;
  await store.reopen();
  assert.is(store.warnings.length, warned, 'no warning the second time');
});

test('when a segment index is deleted, then opening rebuilds it from the records', async () => {
  store = await openTempStore();
  TOKENS.forEach((token, i) => store.storage.writeBatch([storedEntry(profile404({ token, time: T0 + i }))]));
  await store.storage.close();
  const [idx] = segmentFiles(store.dir, 'idx');
  unlinkSync(idx);
  await store.reopen();
  await expectAllThree(store);
  assert.match(store.warnings.join('\n'), /its index is missing; recovered 3 profiles/);
  assert.ok(existsSync(idx));
});

test('when rebuildIndex() is called, then every index is rewritten from the records and the count returned', async () => {
  store = await openTempStore();
  TOKENS.forEach((token, i) => store.storage.writeBatch([storedEntry(profile200({ token, time: T0 + i }))]));
  await store.storage.flush();
  for (const idx of segmentFiles(store.dir, 'idx')) truncateSync(idx, 0);
  assert.is(await store.storage.rebuildIndex(), 3);
  await expectAllThree(store);
  store.storage.writeBatch([storedEntry(profile200({ token: '00000d', time: T0 + 9 }))]);
  await store.storage.flush();
  assert.is((await latestOf(store.storage))?.token, '00000d', 'writing goes on in a new segment');
});

test('when a segment log is gone but its index remains, then its profiles are not listed and nothing fails', async () => {
  store = await openTempStore();
  TOKENS.forEach((token, i) => store.storage.writeBatch([storedEntry(profile200({ token, time: T0 + i }))]));
  await store.storage.close();
  for (const log of segmentFiles(store.dir, 'log')) unlinkSync(log);
  const storage = await store.reopen();
  assert.equal(await storage.search({ limit: 10 }), []);
  assert.is(await storage.read(TOKENS[0]), null);
});

test('when a writing process is killed with SIGKILL under load, then the store opens consistent: every listed profile reads whole', async () => {
  store = await openTempStore();
  const child = await startWriterProcess(store.dir);
  await new Promise((resolve) => setTimeout(resolve, 300));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  const storage = await store.reopen();
  const listed = await storage.search({ limit: 1_000_000 });
  assert.ok(listed.length >= 50, `${listed.length} profiles survived`);
  for (const row of listed) assert.is((await storage.read(row.token))?.token, row.token);
  assert.ok(
    store.warnings.every((w) => /half-written|recovered|stopped without closing/.test(w)),
    store.warnings.join('\n'),
  );
  const warned = store.warnings.length;
  await store.reopen();
  assert.is(store.warnings.length, warned, 'consistent after the first open');
});

test.run();
