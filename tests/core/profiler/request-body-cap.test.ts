import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { BODY_CAP } from '../../../core/profiler/request-collector.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

// The profile's request section: "body (size-capped, marked when truncated)". The renderers are tested
// on fixtures (tests/render); here the profile a real POST leaves in the store.

const test = suite('the request body in a profile: size-capped and marked when truncated (demo app, real HTTP)');
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

async function post(body: string, contentType: string): Promise<any> {
  const r = await fetchText(`${t.base}/contact`, { method: 'POST', headers: { 'content-type': contentType }, body });
  assert.is(r.status, 200, r.body.slice(0, 200));
  return (await fetchProfileJson(t.base, r.headers['x-debug-token'])).collectors.request;
}

test('when a small body is posted, then it is stored whole, with its size and type, not marked truncated', async () => {
  const body = JSON.stringify({ name: 'ann', message: 'hello' });
  const request = await post(body, 'application/json');
  assert.equal(request.body, {
    size: Buffer.byteLength(body),
    contentType: 'application/json',
    truncated: false,
    text: body,
  });
});

test('when a body larger than the cap is posted, then the profile keeps its real size, at most the cap of its text, and says it was truncated', async () => {
  const body = `${'line of text\n'.repeat(Math.ceil((BODY_CAP * 4) / 13))}END-MARKER`;
  const request = await post(body, 'text/plain');
  assert.is(request.body.size, Buffer.byteLength(body));
  assert.is(request.body.truncated, true);
  assert.ok(
    Buffer.byteLength(request.body.text) <= BODY_CAP,
    `${Buffer.byteLength(request.body.text)} bytes kept, cap ${BODY_CAP}`,
  );
  assert.ok(body.startsWith(request.body.text), 'the kept text is the start of the body');
  assert.not.ok(request.body.text.includes('END-MARKER'));
});

test('when a body of exactly the cap is posted, then it is whole and not marked truncated; one byte more is', async () => {
  const exact = 'x'.repeat(BODY_CAP);
  const atCap = await post(exact, 'text/plain');
  assert.is(atCap.body.truncated, false);
  assert.is(atCap.body.text, exact);
  const over = await post(`${exact}y`, 'text/plain');
  assert.is(over.body.truncated, true);
  assert.is(over.body.size, BODY_CAP + 1);
});

test("when the truncated body's profile is opened, then the request panel says truncated", async () => {
  const r = await fetchText(`${t.base}/contact`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'z'.repeat(BODY_CAP * 2),
  });
  await fetchProfileJson(t.base, r.headers['x-debug-token']);
  const page = await fetchText(`${t.base}/_profiler/${r.headers['x-debug-token']}?panel=request&type=request`);
  assert.is(page.status, 200);
  assert.match(load(page.body)('main').text(), /truncated/);
});

test.run();
