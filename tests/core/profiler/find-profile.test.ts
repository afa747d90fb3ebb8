import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AppError } from '../../../core/errors.js';
import { findProfile, resolveProfile } from '../../../core/profiler/find-profile.js';
import { nthToken, profile200, profile404 } from './fixtures.js';
import { openTempStore, type TempStore } from './storage/temp-store.js';
import { storedEntry } from '../../../core/profiler/storage/stored-entry.js';

const test = suite('latest or a token names a profile, or says why none');
let store: TempStore;
test.before.each(async () => {
  store = await openTempStore();
});
test.after.each(async () => {
  await store.remove();
});

const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

test('when the store is empty, then latest is none yet, a malformed token malformed and a well-formed one unknown', async () => {
  assert.is(await resolveProfile(store.storage, 'latest', false), 'none yet');
  assert.is(await resolveProfile(store.storage, 'ABC123', false), 'malformed');
  assert.is(await resolveProfile(store.storage, '../etc', false), 'malformed');
  assert.is(await resolveProfile(store.storage, 'abc123', false), 'unknown');
});

test("when profiles arrived, then latest is the last to arrive, the profiler's own left out unless asked for", async () => {
  store.storage.writeBatch([storedEntry(profile200({ token: nthToken(1), time: T0 + 5, seed: 1 }))]);
  store.storage.writeBatch([storedEntry(profile404({ token: nthToken(2), time: T0, seed: 2 }))]);
  store.storage.writeBatch([
    storedEntry(
      profile200({ token: nthToken(3), time: T0 + 1, seed: 3, url: 'http://127.0.0.1:8000/_profiler/search' }),
    ),
  ]);
  await store.storage.flush();
  const latest = await resolveProfile(store.storage, 'latest', false);
  assert.is(typeof latest === 'string' ? latest : latest.token, nthToken(2));
  const withProfiler = await resolveProfile(store.storage, 'latest', true);
  assert.is(typeof withProfiler === 'string' ? withProfiler : withProfiler.token, nthToken(3));
  const byToken = await resolveProfile(store.storage, nthToken(1), false);
  assert.is(typeof byToken === 'string' ? byToken : byToken.token, nthToken(1));
});

test('when the CLI or MCP look a token up, then blanks are dropped, and a malformed one and an unknown one raise codes of their own', async () => {
  store.storage.writeBatch([storedEntry(profile200({ token: nthToken(4), time: T0, seed: 4 }))]);
  assert.is((await findProfile(store.storage, ` ${nthToken(4)}\n`)).token, nthToken(4));
  const code = (given: string) =>
    findProfile(store.storage, given).then(
      () => null,
      (error: AppError) => error.code,
    );
  assert.is(await code('zzz'), 'APP_ERR_PROFILER_BAD_TOKEN');
  assert.is(await code('abc123'), 'APP_ERR_PROFILER_TOKEN_NOT_FOUND');
});

test.run();
