import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchText } from '../helpers/serve.js';
import { fetchFailure, serveFaultyApp, type FaultyApp } from './faulty-app.js';

const test = suite('a controller whose promise never settles (app requestTimeoutMs: 300)');
let t: FaultyApp;
test.before(async () => {
  t = await serveFaultyApp();
});
test.after(async () => {
  await t.remove();
});

test('when the controller never answers, then 504 after the request timeout, profiled with the timeout error', async () => {
  const started = Date.now();
  const { profile } = await fetchFailure(t, '/never-settles', 504);
  assert.ok(Date.now() - started >= 300, 'not before the timeout');
  const [error] = profile.collectors.exception?.chain ?? [];
  assert.is(error?.status, 504);
  assert.match(error?.message ?? '', 'The controller for route "never_settles" did not answer within 300 ms.');
  assert.ok(profile.duration >= 300, `profile duration ${profile.duration} ms`);
});

test('when requests wait on the stuck controller, then another request is answered while they still wait', async () => {
  let settled = 0;
  const stuck = Array.from({ length: 10 }, () => fetchText(`${t.base}/never-settles`).finally(() => settled++));
  assert.is((await fetchText(`${t.base}/ok`)).status, 200);
  assert.is(settled, 0, 'answered before the stuck requests timed out');
  for (const r of await Promise.all(stuck)) assert.is(r.status, 504);
});

test.run();
