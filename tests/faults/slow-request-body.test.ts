import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchText } from '../helpers/serve.js';
import { serveFaults, type FaultServer } from './fault-server.js';
import { slowSocket } from './slow-socket.js';

const REQUEST_TIMEOUT_MS = 1_000;

const test = suite(`a client that uploads its body byte by byte (requestTimeout ${REQUEST_TIMEOUT_MS} ms)`);
let t: FaultServer;
test.before(async () => {
  t = await serveFaults({
    timeouts: {
      headersTimeout: REQUEST_TIMEOUT_MS / 2,
      requestTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 100,
    },
  });
});
test.after(async () => {
  await t.stop();
});

test('when the body never completes, then the socket is answered 408 and closed after the request timeout, and the server keeps serving', async () => {
  const started = Date.now();
  const uploads = Array.from({ length: 20 }, () =>
    slowSocket(t.base, 'POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n', 'x', 50),
  );
  assert.is((await fetchText(`${t.base}/hello/meanwhile`)).status, 200);
  assert.ok(
    uploads.every((u) => u.open()),
    'the uploads were still open when the other request was answered',
  );
  const answers = await Promise.race([
    Promise.all(uploads.map((u) => u.closed)),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the slow uploads were not closed')), 10 * REQUEST_TIMEOUT_MS),
    ),
  ]);
  assert.ok(Date.now() - started >= REQUEST_TIMEOUT_MS - 300, 'not closed before the request timeout');
  for (const answer of answers)
    assert.match(
      answer,
      /^HTTP\/1\.1 408 Request Timeout\r\n[^]*\r\n\r\nRequest Timeout: the request did not arrive in time\.\n$/,
    );
  assert.is((await fetchText(`${t.base}/`)).status, 200, 'the server keeps serving');
});

test.run();
