import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ProfileFeed } from '../../../core/profiler/profile-feed.js';
import { openPostgresStorage, type PostgresStorage } from '../../../core/profiler/storage/postgres-storage.js';
import { startTempPostgres } from '../../helpers/temp-postgres.js';
import { nthToken, profile200 } from './fixtures.js';
import { storedEntry } from '../../../core/profiler/storage/stored-entry.js';
import { latestOf } from '../../helpers/latest-of.js';

const test = suite(
  'ProfileFeed over a database two servers write: every new profile once, however many came between two polls',
);
const server = await startTempPostgres();
const opened: PostgresStorage[] = [];

async function open(url: string, instance: string): Promise<PostgresStorage> {
  const storage = await openPostgresStorage({ url, instance, onWarning: () => {} });
  opened.push(storage);
  return storage;
}

test.after.each(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

test('when one server stored 250 profiles and the other 80 older ones since the last poll, then the next poll gives all 330, oldest first', async () => {
  const url = await server.createDatabase();
  const a = await open(url, 'host-a:8001');
  const b = await open(url, 'host-b:8002');
  const reader = await open(url, 'host-c:8003');
  const now = Date.now();
  a.writeBatch([storedEntry(profile200({ token: nthToken(1), time: now - 20_000 }))]);
  await a.flush();
  const feed = new ProfileFeed(reader, {});
  assert.equal(await feed.next(), [], 'the first poll only marks what is there');
  for (let i = 0; i < 250; i++)
    a.writeBatch([storedEntry(profile200({ token: nthToken(100 + i), time: now - 5_000 + i * 10 }))]);
  for (let i = 0; i < 80; i++)
    b.writeBatch([storedEntry(profile200({ token: nthToken(400 + i), time: now - 5_000 + i * 10 + 5 }))]);
  await Promise.all([a.flush(), b.flush()]);
  const fresh = await feed.next();
  assert.is(fresh.length, 330);
  assert.is(new Set(fresh.map((row) => row.token)).size, 330, 'each once');
  assert.not.ok(
    fresh.some((row) => row.token === nthToken(1)),
    'not the one stored before the feed began',
  );
  assert.equal(
    fresh.map((row) => row.arrival),
    fresh.map((row) => row.arrival).sort((x, y) => x! - y!),
    'in the order they reached the store',
  );
  assert.equal(await feed.next(), [], 'nothing twice');
});

test('when 150 profiles were stored before the feed began, then none of them is given as new, and the next one is', async () => {
  const url = await server.createDatabase();
  const a = await open(url, 'host-a:8001');
  const now = Date.now();
  for (let i = 0; i < 150; i++)
    a.writeBatch([storedEntry(profile200({ token: nthToken(600 + i), time: now - 10_000 + i * 10 }))]);
  await a.flush();
  const feed = new ProfileFeed(a, {});
  assert.equal(await feed.next(), []);
  a.writeBatch([storedEntry(profile200({ token: nthToken(900), time: now }))]);
  await a.flush();
  assert.equal(
    (await feed.next()).map((row) => row.token),
    [nthToken(900)],
  );
});

test('when one server is ten years ahead and another five minutes ahead, then the feed still gives every new profile of a third', async () => {
  const url = await server.createDatabase();
  const planted = await open(url, 'host-x:19003');
  const skewed = await open(url, 'host-b:8002');
  const honest = await open(url, 'host-a:8001');
  const feed = new ProfileFeed(honest, {});
  assert.equal(await feed.next(), []);
  planted.writeBatch([storedEntry(profile200({ token: nthToken(1_000), time: Date.now() + 10 * 365 * 86_400_000 }))]);
  skewed.writeBatch([storedEntry(profile200({ token: nthToken(1_001), time: Date.now() + 5 * 60_000 }))]);
  await Promise.all([planted.flush(), skewed.flush()]);
  assert.equal(
    (await feed.next()).map((row) => row.token).sort(),
    [nthToken(1_000), nthToken(1_001)].sort(),
    'both, in whichever order the two servers reached the database',
  );
  for (let i = 0; i < 5; i++)
    honest.writeBatch([storedEntry(profile200({ token: nthToken(1_010 + i), time: Date.now() }))]);
  await honest.flush();
  assert.equal(
    (await feed.next()).map((row) => row.token),
    [0, 1, 2, 3, 4].map((i) => nthToken(1_010 + i)),
    'all 5 new ones',
  );
  assert.is(
    (await latestOf(honest))?.token,
    nthToken(1_014),
    'and the latest is the last stored, not the one dated ahead',
  );
});

test.run();
