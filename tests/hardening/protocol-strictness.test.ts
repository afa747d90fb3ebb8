import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serveForTest, type TestServer } from '../helpers/serve.js';
import { sendRaw } from './raw-http.js';

// The request line and framing are checked before anything is routed: an absolute-form target
// names its host as the Host header does, HTTP versions other than 1.0 and 1.1 are not spoken,
// and HTTP/1.0 has no chunked bodies.

const test = suite('protocol strictness: absolute-form authority, HTTP version, chunked on HTTP/1.0 (real server)');
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(() => t?.stop());

test('when an absolute-form target names a host outside the Host policy, then 421 whatever the Host header says, and the profiler is not read', async () => {
  const r = await sendRaw(
    t.base,
    `GET http://evil.example/_profiler/latest.json HTTP/1.1\r\nHost: ${t.host}\r\nConnection: close\r\n\r\n`,
  );
  assert.is(r.status, 421, r.body);
  assert.match(r.body, /evil\.example/);
  assert.not.match(r.body, /"token"/);
});

test('when an absolute-form target names this server, then it is served as its path', async () => {
  const r = await sendRaw(
    t.base,
    `GET http://${t.host}/hello/world HTTP/1.1\r\nHost: ${t.host}\r\nConnection: close\r\n\r\n`,
  );
  assert.is(r.status, 200, r.body);
});

test('when the request line says HTTP/2.0, HTTP/1.2 or HTTP/3.0, then 505 naming the versions spoken', async () => {
  for (const version of ['2.0', '1.2', '3.0']) {
    const r = await sendRaw(t.base, `GET /hello/world HTTP/${version}\r\nHost: ${t.host}\r\nConnection: close\r\n\r\n`);
    assert.is(r.status, 505, `${version}: ${r.body}`);
    assert.match(r.body, /HTTP\/1\.0 and HTTP\/1\.1/);
  }
});

test('when an HTTP/1.0 request sends a chunked body, then 400; HTTP/1.1 may', async () => {
  const chunked = '5\r\nhello\r\n0\r\n\r\n';
  const old = await sendRaw(
    t.base,
    `POST /contact HTTP/1.0\r\nHost: ${t.host}\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n${chunked}`,
  );
  assert.is(old.status, 400, old.body);
  assert.match(old.body, /Transfer-Encoding is not part of HTTP\/1\.0/);
  const current = await sendRaw(
    t.base,
    `POST /contact HTTP/1.1\r\nHost: ${t.host}\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${chunked}`,
  );
  assert.is.not(current.status, 400, current.body);
});

test.run();
