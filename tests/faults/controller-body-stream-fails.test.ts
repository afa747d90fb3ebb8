import { get } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../core/profiler/profile.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { fetchFailure, serveFaultyApp, type FaultyApp } from './faulty-app.js';

/** A GET that reports a response cut short instead of failing. */
function getUntilClosed(url: string): Promise<{ status: number; token: string; body: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('error', () => {});
      response.on('close', () =>
        resolve({
          status: response.statusCode ?? 0,
          token: String(response.headers['x-debug-token']),
          body,
          complete: response.complete,
        }),
      );
    }).on('error', reject);
  });
}

const test = suite('a controller whose response body stream fails');
let t: FaultyApp;
test.before(async () => {
  t = await serveFaultyApp();
});
test.after(async () => {
  await t.remove();
});

test('when the body stream was written to after its end before anything was sent, then 500 naming the stream error, profiled', async () => {
  const { profile } = await fetchFailure(t, '/pushes-after-end', 500);
  assert.match(profile.collectors.exception?.chain[0].message ?? '', /after EOF/);
});

test('when the body stream fails before its first byte (a missing file), then 500, and the profile holds 500 and a CRITICAL record saying why', async () => {
  const { body, profile } = await fetchFailure(t, '/missing-file', 500);
  assert.is(body, 'Internal Server Error: the response body could not be produced.\n');
  assert.ok(
    profile.collectors.log.records.some(
      (rec) =>
        rec.level === 'CRITICAL' &&
        rec.message.startsWith('The response body stream failed before its first byte: ENOENT'),
    ),
    JSON.stringify(profile.collectors.log.records.map((rec) => rec.message)),
  );
});

test('when the body stream fails midway, then the client gets a cut response, and the profile keeps the status sent and an ERROR record saying why', async () => {
  const r = await getUntilClosed(`${t.base}/stream-fails-midway`);
  assert.is(r.status, 200);
  assert.is(r.body, 'the first half');
  assert.is(r.complete, false, 'the response is cut, not ended as if whole');
  const profile = (await fetchProfileJson(t.base, r.token)) as Profile;
  assert.is(profile.status, 200);
  assert.ok(
    profile.collectors.log.records.some(
      (rec) =>
        rec.level === 'ERROR' &&
        rec.channel === 'request' &&
        rec.message === 'The response body stream failed after the headers were sent: The second half is lost.',
    ),
    JSON.stringify(profile.collectors.log.records.map((rec) => rec.message)),
  );
  assert.is((await fetchText(`${t.base}/ok`)).status, 200);
});

test.run();
