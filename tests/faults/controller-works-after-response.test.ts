import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchText } from '../helpers/serve.js';
import { waitFor } from './fault-server.js';
import { fetchFailure, serveFaultyApp, type FaultyApp } from './faulty-app.js';

const test = suite('a controller that goes on working after its response ended');
let t: FaultyApp;
test.before(async () => {
  t = await serveFaultyApp();
});
test.after(async () => {
  await t.remove();
});

test('when it pushes into its ended body and logs later, then the answer stands, its profile is kept, the late record is printed, and the server keeps serving', async () => {
  const { body, profile } = await fetchFailure(t, '/works-after-response', 200);
  assert.is(body, 'the whole answer');
  assert.is(profile.collectors.exception, null);
  await waitFor('the late log record', () =>
    t.lines.some((line) => line.includes('Still working after the response ended.')),
  );
  assert.is((await fetchText(`${t.base}/ok`)).status, 200);
  assert.is((await fetchText(`${t.base}/_profiler/${profile.token}.json`)).status, 200, 'the profile is still there');
});

test.run();
