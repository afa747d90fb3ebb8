import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';
import { fetchProfileJson, fetchText, serveAppSource, type TestServer } from '../../helpers/serve.js';

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .post('json', '/json', async ({ request }) => ({ got: await request.json() }))
  .post('small', '/small', async ({ request }) => ({ got: await request.json({ limit: 10 }) }))
  .post('form', '/form', async ({ request }) => ({ got: await request.form() }))
  .post('files', '/files', async ({ request }) => {
    const data = await request.formData();
    const file = data.get('upload');
    return { title: data.get('title'), file: typeof file === 'string' || file === null ? null : { name: file.name, text: await file.text() } };
  })
  .post('text', '/text', async ({ request }) => ({ got: await request.text() }));
`;

const JSON_ACCEPT = { accept: 'application/json' };

const test = suite('request.json(), form(), formData() and text() on a real server');
let s: TestServer;

test.before(async () => {
  s = await serveAppSource('app.config.ts', APP);
});

test.after(async () => {
  await s.stop();
});

test('when JSON is posted, then request.json() parses it', async () => {
  const r = await fetchText(`${s.base}/json`, {
    method: 'POST',
    body: '{"name":"Ada","tags":[1,2]}',
    headers: { 'content-type': 'application/json' },
  });
  assert.is(r.status, 200);
  assert.equal(JSON.parse(r.body), { got: { name: 'Ada', tags: [1, 2] } });
});

test('when malformed JSON is posted, then 400 with a clear message (not a 500), profiled with its exception', async () => {
  const r = await fetchText(`${s.base}/json`, {
    method: 'POST',
    body: '{"name":',
    headers: { ...JSON_ACCEPT, 'content-type': 'application/json' },
  });
  assert.is(r.status, 400);
  assert.match(r.body, /Malformed JSON body/);
  const profile = await fetchProfileJson(s.base, r.headers['x-debug-token']);
  assert.is(profile.status, 400);
  assert.match(JSON.stringify(profile), /BadRequestError/);
});

test('when the JSON body is empty, then 400 saying so', async () => {
  const r = await fetchText(`${s.base}/json`, { method: 'POST', body: '', headers: JSON_ACCEPT });
  assert.is(r.status, 400);
  assert.match(r.body, /the request body is empty/);
});

test("when a body is over the helper's limit, then 413", async () => {
  const r = await fetchText(`${s.base}/small`, { method: 'POST', body: '"12345678901"', headers: JSON_ACCEPT });
  assert.is(r.status, 413);
  assert.match(r.body, /exceeds the limit of 10 bytes/);
});

test('when an urlencoded form is posted, then request.form() gives its fields, repeated ones as arrays', async () => {
  const r = await fetchText(`${s.base}/form`, {
    method: 'POST',
    body: 'name=Ada+L&tag=a&tag=b%26c',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.is(r.status, 200);
  assert.equal(JSON.parse(r.body), { got: { name: 'Ada L', tag: ['a', 'b&c'] } });
});

test('when a form has broken percent-encoding, then 400', async () => {
  const r = await fetchText(`${s.base}/form`, {
    method: 'POST',
    body: 'name=%E0%A4%A',
    headers: { ...JSON_ACCEPT, 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.is(r.status, 400);
  assert.match(r.body, /Malformed form body/);
});

test('when form() gets JSON, then 415', async () => {
  const r = await fetchText(`${s.base}/form`, {
    method: 'POST',
    body: '{}',
    headers: { ...JSON_ACCEPT, 'content-type': 'application/json' },
  });
  assert.is(r.status, 415);
});

test('when a multipart form with a file is posted, then formData() has the field and the file, form() the fields', async () => {
  const boundary = 'XyZ123';
  const body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="title"',
    '',
    'Notes',
    `--${boundary}`,
    'Content-Disposition: form-data; name="upload"; filename="a.txt"',
    'Content-Type: text/plain',
    '',
    'file body',
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  const r = await fetchText(`${s.base}/files`, { method: 'POST', body, headers });
  assert.is(r.status, 200, r.body);
  assert.equal(JSON.parse(r.body), { title: 'Notes', file: { name: 'a.txt', text: 'file body' } });
  const fields = await fetchText(`${s.base}/form`, { method: 'POST', body, headers });
  assert.equal(JSON.parse(fields.body), { got: { title: 'Notes' } });
});

test('when a multipart body is malformed, then 400', async () => {
  const r = await fetchText(`${s.base}/files`, {
    method: 'POST',
    body: 'not multipart at all',
    headers: { ...JSON_ACCEPT, 'content-type': 'multipart/form-data; boundary=abc' },
  });
  assert.is(r.status, 400);
  assert.match(r.body, /Malformed form body/);
});

test('when text is posted, then text() gives it; invalid UTF-8 is a 400', async () => {
  assert.equal(JSON.parse((await fetchText(`${s.base}/text`, { method: 'POST', body: 'héllo' })).body), {
    got: 'héllo',
  });
  const { request } = await import('undici');
  const r = await request(`${s.base}/text`, {
    method: 'POST',
    body: Buffer.from([0xff, 0xfe, 0x41]),
    headers: JSON_ACCEPT,
  });
  assert.is(r.statusCode, 400);
  assert.match(await r.body.text(), /not valid UTF-8/);
});

test.run();
