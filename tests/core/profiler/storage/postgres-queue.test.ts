import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../../../core/profiler/storage/postgres-schema.js';
import { GATHER_MS, PostgresQueue } from '../../../../core/profiler/storage/postgres-queue.js';
import { waitFor } from '../../../helpers/poll.js';
import { openPostgresStorage } from '../../../../core/profiler/storage/postgres-storage.js';
import { summarize } from '../../../../core/profiler/storage/index-line.js';
import { toStoredForm } from '../../../../core/profiler/storage/stored-form.js';
import { startTempPostgres } from '../../../helpers/temp-postgres.js';
import { nthToken, profile200, profile404 } from '../fixtures.js';

const server = await startTempPostgres();
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

test("when the written profiles' JSON are views of one larger buffer, then each is stored as it was given", async () => {
  const url = await server.createDatabase();
  const storage = await openPostgresStorage({ url, onWarning: () => {} });
  try {
    const profiles = Array.from({ length: 600 }, (_, i) =>
      (i % 2 ? profile200 : profile404)({ token: nthToken(i), time: T0 + i, seed: i }),
    );
    const jsons = profiles.map((p) => Buffer.from(JSON.stringify(toStoredForm(p))));
    const slab = Buffer.concat(jsons);
    let at = 0;
    storage.writeBatch(
      profiles.map((profile, i) => ({ json: slab.subarray(at, (at += jsons[i].length)), summary: summarize(profile) })),
    );
    await storage.flush();
    assert.is(await storage.count({ limit: 1 }), 600);
    for (const i of [0, 1, 499, 500, 599])
      assert.equal(await storage.read(nthToken(i)), { ...profiles[i], instance: storage.instance });
  } finally {
    await storage.close();
  }
});

test('when profiles keep coming while an INSERT is out, then the next INSERT waits for more until a gathering time after the last was sent', async () => {
  const url = await server.createDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const client = await pool.connect();
  await migrate(client);
  client.release();
  // The real pool, each statement it is sent noted with its time and rows.
  const sent: { at: number; rows: number }[] = [];
  const noted = Object.create(pool) as pg.Pool;
  noted.query = ((config: { values: Buffer[] }) => {
    sent.push({ at: performance.now(), rows: config.values[0].readInt32BE(12) });
    return pool.query(config as never);
  }) as never;
  let stored = 0;
  const queue = new PostgresQueue(noted, () => 'host:1', {
    written: (tokens) => void (stored += tokens.length),
    dropped: () => {},
    warn: () => {},
  });
  const queued = (i: number) => {
    const profile = profile200({ token: nthToken(i), time: T0 + i, seed: i });
    return { summary: summarize(profile), json: Buffer.from(JSON.stringify(toStoredForm(profile))) };
  };
  try {
    for (let i = 0; i < 5; i++) queue.enqueue(queued(i));
    assert.ok(await waitFor(() => sent.length === 1, 5_000));
    for (let i = 5; i < 10; i++) queue.enqueue(queued(i));
    assert.ok(await waitFor(() => stored === 10, 5_000));
    assert.equal(
      sent.map((s) => s.rows),
      [5, 5],
    );
    // Noted once its blocks are deflated, a little after the queue sent it: half the gathering time at least.
    assert.ok(
      sent[1].at - sent[0].at >= GATHER_MS / 2,
      `the second INSERT ${(sent[1].at - sent[0].at).toFixed(1)} ms after the first`,
    );
  } finally {
    await queue.flush();
    await pool.end();
  }
});

test.run();
