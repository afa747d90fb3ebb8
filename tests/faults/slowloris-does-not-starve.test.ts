import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchText } from '../helpers/serve.js';
import { serveFaults, type FaultServer } from './fault-server.js';
import { slowSocket, type SlowSocket } from './slow-socket.js';

const HEADERS_TIMEOUT_MS = 1_000;
const SLOW_SOCKETS = 200;

const test = suite(
  `a slowloris client on loopback (${SLOW_SOCKETS} sockets sending headers byte by byte; headersTimeout ${HEADERS_TIMEOUT_MS} ms)`,
);
let t: FaultServer;
let slow: SlowSocket[] = [];
test.before(async () => {
  t = await serveFaults({
    timeouts: {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: 2 * HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: 100,
    },
  });
});
test.after(async () => {
  for (const s of slow) s.socket.destroy();
  await t.stop();
});

test('when the slow sockets hold their connections, then normal requests are answered promptly meanwhile, and the slow ones are closed by the header timeout with a 408', async () => {
  slow = Array.from({ length: SLOW_SOCKETS }, (_, i) =>
    slowSocket(t.base, `GET /hello/slow${i} HTTP/1.1\r\nHost: 127.0.0.1\r\n`, 'X-Slow: aaaaaaaaaaaaaaaa\r\n', 50),
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = Date.now();
  let answeredWhileAllOpen = 0;
  for (let i = 0; i < 20; i++) {
    const sent = Date.now();
    const r = await fetchText(`${t.base}/hello/normal${i}`);
    assert.is(r.status, 200);
    assert.ok(Date.now() - sent < HEADERS_TIMEOUT_MS / 2, `request ${i} took ${Date.now() - sent} ms`);
    if (Date.now() - started < HEADERS_TIMEOUT_MS / 2 && slow.every((s) => s.open())) answeredWhileAllOpen++;
  }
  assert.ok(answeredWhileAllOpen > 0, 'normal requests were answered while every slow socket was still open');

  const answers = await Promise.race([
    Promise.all(slow.map((s) => s.closed)),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the slow sockets were not closed')), 10 * HEADERS_TIMEOUT_MS),
    ),
  ]);
  assert.ok(Date.now() - started >= HEADERS_TIMEOUT_MS - 300, 'not closed before the header timeout');
  for (const answer of answers)
    assert.match(
      answer,
      /^HTTP\/1\.1 408 Request Timeout\r\n[^]*\r\n\r\nRequest Timeout: the request did not arrive in time\.\n$/,
    );
  assert.is((await fetchText(`${t.base}/`)).status, 200, 'the server keeps serving');
});

test.run();
