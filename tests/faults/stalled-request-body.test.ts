import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchText } from '../helpers/serve.js';
import { serveFaults, waitFor, type FaultServer } from './fault-server.js';
import { rawClient } from './raw-client.js';

const IDLE_MS = 300;

const test = suite(`a request body that stops making progress (bodyIdleTimeout ${IDLE_MS} ms)`);
let t: FaultServer;
test.before(async () => {
  t = await serveFaults({ timeouts: { bodyIdleTimeout: IDLE_MS } });
});
test.after(async () => {
  await t.stop();
});

test('when a client sends part of its body and then nothing, then it is answered 408 with a plain message and the connection is closed', async () => {
  const client = rawClient(t.base);
  client.socket.write('POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n0123456789');
  const answer = await Promise.race([
    client.closed,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the stalled upload was not closed')), 20 * IDLE_MS),
    ),
  ]);
  assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  assert.match(answer, /\r\nConnection: close\r\n/i);
  assert.ok(answer.endsWith('\r\n\r\nRequest Timeout: the request body made no progress for 300 ms.\n'), answer);
  assert.is((await fetchText(`${t.base}/`)).status, 200, 'the server keeps serving');
});

test('when a body trickles in slower than the whole timeout but a byte at least every 50 ms, then it is read whole and answered', async () => {
  const client = rawClient(t.base);
  const body = 'x'.repeat(20);
  client.socket.write(
    `POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  for (const byte of body) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.socket.write(byte);
  }
  const answer = await client.closed;
  assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
  assert.ok(answer.endsWith(JSON.stringify({ received: 20 })), answer);
});

test('when the client has sent no body yet after its head, then the same idle timeout applies', async () => {
  const client = rawClient(t.base);
  client.socket.write('POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n');
  await waitFor('the 408', () => client.received().startsWith('HTTP/1.1 408 '), 20 * IDLE_MS);
  await client.closed;
});

test.run();
