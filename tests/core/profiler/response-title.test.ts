import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

const test = suite('the profile keeps the page title as the browser shows it (demo app)');
let t: TestServer;
test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

test('when a 404 page is profiled, then its title is stored with the entities decoded', async () => {
  const r = await fetchText(`${t.base}/robots.txt`);
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  assert.is(profile.collectors.request.response.title, `No route found for "GET ${t.base}/robots.txt" (404 Not Found)`);
});

test('when a response is profiled, then its own X-Debug-Token headers are kept, not redacted', async () => {
  const r = await fetchText(`${t.base}/hello/world`);
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  const headers = profile.collectors.request.response.headers;
  const token = Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-debug-token')?.[1];
  assert.is(token, r.headers['x-debug-token']);
  assert.not.ok(profile.collectors.request.redacted.some((what: string) => /x-debug-token/i.test(what)));
});

test.run();
