import { load } from 'cheerio';
import { existsSync, rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { serveFaults, waitFor, type FaultServer } from './fault-server.js';
import { profiledRequests } from './store-segments.js';

const test = suite('the profile store folder deleted while the server runs');
let t: FaultServer;
test.before(async () => {
  t = await serveFaults();
});
test.after(async () => {
  await t.stop();
});

test('when the folder is deleted, then requests are answered, the folder is created again with a warning, and new profiles load', async () => {
  const [before] = await profiledRequests(t, 2);
  rmSync(t.storeDir, { recursive: true, force: true });

  const [token] = await profiledRequests(t, 1, '/hello/again');
  assert.ok(existsSync(t.storeDir), 'the folder is back');
  const profile = await fetchProfileJson(t.base, token);
  assert.is(profile.url, `${t.base}/hello/again`);
  await waitFor('the warning', () =>
    t.lines.some((line) =>
      line.includes(`warning: The profile store folder ${t.storeDir} was removed while in use: created it again.`),
    ),
  );
  assert.is(
    (await fetchText(`${t.base}/_profiler/${before}.json`)).status,
    404,
    'a profile deleted with the folder is a plain 404',
  );
  const search = await fetchText(`${t.base}/_profiler/search?limit=50`);
  assert.is(search.status, 200);
  assert.ok(search.body.includes(profile.token));
});

test('when the folder is deleted between reads, then the profiler pages answer from an empty store and nothing fails', async () => {
  rmSync(t.storeDir, { recursive: true, force: true });
  const search = await fetchText(`${t.base}/_profiler/search?limit=10`);
  assert.is(search.status, 200);
  const again = await fetchText(`${t.base}/_profiler/search?limit=10&profiler=1`);
  assert.ok(
    load(again.body)('td.url').text().includes('/_profiler/search?limit=10'),
    'the search request itself was profiled into a new folder',
  );
  assert.is((await fetchText(`${t.base}/`)).status, 200);
});

test.run();
