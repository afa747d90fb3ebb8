import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { settledYet } from '../../../helpers/poll.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';
import { nthToken, profile200 } from '../fixtures.js';
import { openTempStore, type TempStore } from '../storage/temp-store.js';

// The intake in front of a real folder store: what it admits, what readers wait for, what it counts.
// The same intake fronts PostgreSQL (postgres-storage.test.ts runs its cases there).

const test = suite('ProfileIntake: admission, announced profiles and drop counts, in front of a folder store');
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
let store: TempStore;
test.before.each(async () => {
  store = await openTempStore();
});
test.after.each(async () => {
  await store.remove();
});

test('when a profile is announced, then has() knows it and a read waits until it is written', async () => {
  const intake = await store.reopenBehindIntake();
  const profile = profile200({ token: nthToken(1), time: T0 });
  assert.ok(intake.announce(profile.token));
  assert.ok(intake.has(profile.token));
  const read = intake.read(profile.token);
  assert.is(await settledYet(read), false, 'the profile is still being built');
  intake.writeBatch([storedEntry(profile)]);
  assert.is((await read)?.token, profile.token);
  assert.equal(
    (await intake.search({ limit: 10 })).map((row) => row.token),
    [profile.token],
  );
});

test('when 3/4 of the queue is announced, then whenRoom waits until half of that is left', async () => {
  const intake = await store.reopenBehindIntake(8);
  assert.is(intake.whenRoom(), null, 'nothing announced');
  const profiles = Array.from({ length: 6 }, (_, i) => profile200({ token: nthToken(10 + i), time: T0 + i }));
  for (const profile of profiles) assert.ok(intake.announce(profile.token));
  const wait = intake.whenRoom();
  assert.ok(wait, 'six of eight announced: behind');
  intake.writeBatch([storedEntry(profiles[0])]);
  assert.is(await settledYet(wait!), false, 'five announced: still above half of six');
  intake.writeBatch(profiles.slice(1, 3).map(storedEntry));
  assert.is(await settledYet(wait!), true, 'three announced: the wait is over');
  intake.writeBatch(profiles.slice(3).map(storedEntry));
  await intake.flush();
  assert.is(intake.stats().dropped, 0);
  assert.is(await intake.count({ limit: 1 }), 6);
});

test('when the queue is full, then an announcement is refused, dropped and counted, and room comes back once stored', async () => {
  const intake = await store.reopenBehindIntake(4);
  for (let i = 0; i < 4; i++) assert.ok(intake.announce(nthToken(20 + i)));
  assert.not.ok(intake.announce(nthToken(24)), 'the fifth');
  assert.is(intake.stats().dropped, 1);
  assert.match(store.warnings.join('\n'), /queue is full \(4 profiles\)/);
  intake.writeBatch(
    Array.from({ length: 4 }, (_, i) => storedEntry(profile200({ token: nthToken(20 + i), time: T0 }))),
  );
  await intake.flush();
  assert.ok(intake.announce(nthToken(25)), 'stored ones leave the queue');
  intake.cancel(nthToken(25), 'test');
});

test('when profiles were dropped, then closing says how many in all', async () => {
  const intake = await store.reopenBehindIntake();
  assert.ok(intake.announce(nthToken(30)));
  intake.cancel(nthToken(30), 'A profile could not be built (test), so it was dropped.');
  assert.ok(intake.announce(nthToken(31)));
  intake.cancel(nthToken(31), 'A profile could not be built (test), so it was dropped.');
  await intake.close();
  assert.is(intake.stats().dropped, 2);
  assert.equal(store.warnings, [
    'A profile could not be built (test), so it was dropped.',
    '2 profiles were dropped in all since the profile store was opened.',
  ]);
  assert.not.ok(intake.announce(nthToken(32)), 'a closed intake takes no more');
});

test.run();
