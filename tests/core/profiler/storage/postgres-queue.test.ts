import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openPostgresStorage } from '../../../../core/profiler/storage/postgres-storage.js';
import { summarize } from '../../../../core/profiler/storage/index-line.js';
import { toStoredForm } from '../../../../core/profiler/storage/stored-form.js';
import { startTempPostgres } from '../../../helpers/temp-postgres.js';
import { nthToken, profile200, profile404 } from '../fixtures.js';

const server = await startTempPostgres();
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

test('when the announced profiles\' JSON are views of one larger buffer, then each is stored as it was given', async () => {
  const url = await server.createDatabase();
  const storage = await openPostgresStorage({ url, onWarning: () => {} });
  try {
    const profiles = Array.from({ length: 600 }, (_, i) => (i % 2 ? profile200 : profile404)({ token: nthToken(i), time: T0 + i, seed: i }));
    const jsons = profiles.map((p) => Buffer.from(JSON.stringify(toStoredForm(p))));
    const slab = Buffer.concat(jsons);
    let at = 0;
    for (const [i, profile] of profiles.entries()) {
      storage.announce(profile.token);
      storage.writeJson(slab.subarray(at, at += jsons[i].length), summarize(profile));
    }
    await storage.flush();
    assert.is(await storage.count({ limit: 1 }), 600);
    for (const i of [0, 1, 499, 500, 599]) assert.equal(await storage.read(nthToken(i)), { ...profiles[i], instance: storage.instance });
  } finally {
    await storage.close();
  }
});

test.run();
