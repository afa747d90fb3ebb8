import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../../core/profiler/profile.js';
import { diffReplay, replay } from '../../../core/profiler/replay.js';
import { fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

// The debug 404 page holds the token, the URL with its port, durations and times in its text and links:
// its body structure must not see them, so that replaying the same 404 compares equal.

const test = suite('the body structure of a replayed debug 404 page (demo app, two servers)');
let one: TestServer;
let two: TestServer;
test.before(async () => {
  [one, two] = await Promise.all([serveForTest(), serveForTest()]);
});
test.after(async () => {
  await Promise.all([one.stop(), two.stop()]);
});

async function profiled(t: TestServer, path: string, init: { method?: string; body?: string } = {}): Promise<Profile> {
  const token = (await fetchText(`${t.base}${path}`, init)).headers['x-debug-token']!;
  for (let i = 0; i < 500; i++) {
    const profile = await t.server.storage!.read(token);
    if (profile) return profile;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`profile ${token} not readable`);
}

test('when the same 404 is replayed, then its body structure is recorded and compares equal', async () => {
  const recorded = await profiled(one, '/robots.txt');
  const structure = recorded.collectors.request.response.structure;
  assert.is(structure?.kind, 'html');
  assert.ok(structure!.nodes > 50, `the whole error page, toolbar included: ${structure!.nodes} elements`);
  const result = await replay(recorded);
  assert.is(result.status, 404);
  assert.ok(result.profile, 'the replay was profiled');
  assert.is.not(result.token, recorded.token);
  assert.equal(result.profile!.collectors.request.response.structure, structure);
  const diff = diffReplay(recorded, result.profile!);
  assert.ok(
    diff.rows.some((r) => r.field === 'body structure' && r.same && r.a === r.b),
    JSON.stringify(diff.rows),
  );
  assert.ok(diff.same, JSON.stringify(diff.rows.filter((r) => !r.same)));
});

test('when the same 404 is served on another port, then its body structure is the same', async () => {
  const a = await profiled(one, '/robots.txt');
  const b = await profiled(two, '/robots.txt');
  assert.is.not(one.base, two.base);
  assert.equal(a.collectors.request.response.structure, b.collectors.request.response.structure);
});

test('when a JSON body is replayed, then its structure compares equal too', async () => {
  const recorded = await profiled(one, '/contact', { method: 'POST', body: 'name=ann' });
  assert.equal(recorded.collectors.request.response.structure, {
    kind: 'json',
    nodes: 2,
    hash: recorded.collectors.request.response.structure!.hash,
  });
  const result = await replay(recorded);
  assert.ok(result.profile);
  assert.equal(result.profile!.collectors.request.response.structure, recorded.collectors.request.response.structure);
});

test.run();
