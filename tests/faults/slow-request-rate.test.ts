import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serveFaults, waitFor, type FaultServer } from './fault-server.js';
import { rawClient } from './raw-client.js';
import { slowSocket } from './slow-socket.js';

const GRACE_MS = 400;
const MIN_RATE = 100;
const TOO_SLOW =
  /^HTTP\/1\.1 408 Request Timeout\r\n[^]*\r\nConnection: close\r\n\r\nRequest Timeout: the request arrived slower than 100 bytes per second\.\n$/;

const test = suite(
  `a request arriving slower than the minimum rate (${MIN_RATE} bytes/s over windows of ${GRACE_MS} ms)`,
);
let t: FaultServer;
test.before(async () => {
  t = await serveFaults({ timeouts: { minRequestRate: MIN_RATE, slowRequestGrace: GRACE_MS } });
});
test.after(async () => {
  await t.stop();
});

/** Resolves to what the socket got, or fails the test when it is still open after `ms`. */
async function closedWithin<T>(closed: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      closed,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} was not closed within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

for (const [kind, start] of [
  ['a head', 'GET /hello/slow HTTP/1.1\r\nHost: 127.0.0.1\r\n'],
  ['a body', 'POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n'],
] as const) {
  test(`when ${kind} trickles in at 10 bytes per second, then it is answered 408 and closed once its first window has passed, well before the header and request timeouts`, async () => {
    const started = Date.now();
    const slow = slowSocket(t.base, start, 'x', 100);
    const answer = await closedWithin(slow.closed, 10 * GRACE_MS, kind);
    assert.ok(
      Date.now() - started >= GRACE_MS - 50,
      `closed after ${Date.now() - started} ms, before its first window had passed`,
    );
    assert.match(answer, TOO_SLOW);
    const after = rawClient(t.base);
    after.socket.write('GET /hello/after HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    assert.match(await after.closed, /^HTTP\/1\.1 200 OK\r\n/, 'the server keeps serving');
  });
}

test('when a body arrives at 500 bytes per second over three windows, then it is read whole and answered', async () => {
  const client = rawClient(t.base);
  client.socket.write('POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 600\r\nConnection: close\r\n\r\n');
  for (let i = 0; i < 12; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.socket.write('x'.repeat(50));
  }
  const answer = await closedWithin(client.closed, 10 * GRACE_MS, 'the upload');
  assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
  assert.ok(answer.endsWith(JSON.stringify({ received: 600 })), answer);
});

test('when a keep-alive connection was answered and then sends nothing for three windows, then it is kept, and its next request is answered', async () => {
  const client = rawClient(t.base);
  client.socket.write('GET /hello/first HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await waitFor('the first answer', () => client.received().includes('Hello first'));
  await new Promise((resolve) => setTimeout(resolve, 3 * GRACE_MS));
  assert.not.ok(client.socket.destroyed, 'the idle keep-alive connection is still open');
  client.socket.write('GET /hello/second HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  const answer = await closedWithin(client.closed, 10 * GRACE_MS, 'the second request');
  assert.ok(answer.includes('Hello second'), answer);
});

test.run();
