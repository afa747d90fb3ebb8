import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serveFaults, waitFor, type FaultServer } from './fault-server.js';
import { rawClient, type RawClient } from './raw-client.js';

const CAP = 3;
const EVICTED =
  /^HTTP\/1\.1 408 Request Timeout\r\n[^]*\r\n\r\nRequest Timeout: the server is at its connection limit and this request was still incomplete\.\n$/;

/** A connection that has sent `start` and waits until the server took it in. */
async function holding(t: FaultServer, start: string): Promise<RawClient> {
  const client = rawClient(t.base);
  await new Promise((resolve) => client.socket.once('connect', resolve));
  if (start !== '') client.socket.write(start);
  // The server counts a connection once it accepted it; a served request proves the earlier ones were.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return client;
}

/** A fresh connection asking for `path` with Connection: close; everything it got back. */
async function fresh(t: FaultServer, path: string): Promise<string> {
  const client = rawClient(t.base);
  client.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  return client.closed;
}

const test = suite(`the connection cap held by incomplete requests (maxConnections ${CAP}, no minimum rate)`);
let t: FaultServer;
const clients: RawClient[] = [];
test.before(async () => {
  t = await serveFaults({ timeouts: { maxConnections: CAP, minRequestRate: 0 } });
});
test.after(async () => {
  for (const client of clients) client.socket.destroy();
  await t.stop();
});

test(`when ${CAP} unfinished heads hold the cap, then a new connection is served, and the oldest of them is answered 408 and closed`, async () => {
  for (let i = 0; i < CAP; i++)
    clients.push(await holding(t, `GET /hello/slow${i} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `));
  assert.match(await fresh(t, '/hello/fresh'), /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(await clients[0].closed, EVICTED);
  assert.ok(
    !clients[1].socket.destroyed && !clients[2].socket.destroyed,
    'the younger unfinished heads are still open',
  );
});

test('when the oldest incomplete request is a body still arriving, then it is the first answered 408 and closed, then the head, then the connection that sent nothing', async () => {
  clients.splice(0).forEach((client) => client.socket.destroy());
  await waitFor(
    'the held connections are gone',
    async () => (await new Promise<number>((resolve) => t.server.server.getConnections((_, n) => resolve(n)))) === 0,
  );
  clients.push(await holding(t, 'POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n0123456789'));
  clients.push(await holding(t, 'GET /hello/slow HTTP/1.1\r\n'));
  clients.push(await holding(t, ''));
  // Each served connection leaves; one that sends nothing takes its place, so that the cap is held again.
  for (let i = 0; i < CAP; i++) {
    assert.match(await fresh(t, `/hello/fresh${i}`), /^HTTP\/1\.1 200 OK\r\n/);
    clients.push(await holding(t, ''));
  }
  assert.match(await clients[0].closed, EVICTED, 'the body first');
  assert.match(await clients[1].closed, EVICTED, 'then the head');
  assert.is(await clients[2].closed, '', 'then the connection that sent nothing, without an answer');
});

test('when the cap is held by connections whose requests are whole (waiting on keep-alive), then a new one is refused', async () => {
  clients.splice(0).forEach((client) => client.socket.destroy());
  await waitFor(
    'the held connections are gone',
    async () => (await new Promise<number>((resolve) => t.server.server.getConnections((_, n) => resolve(n)))) === 0,
  );
  for (let i = 0; i < CAP; i++) {
    const client = await holding(t, `GET /hello/kept${i} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await waitFor(`the answer to kept${i}`, () => client.received().includes('Hello'));
    clients.push(client);
  }
  assert.is(await fresh(t, '/hello/refused'), '', 'the connection past the cap is closed without an answer');
  assert.ok(
    clients.every((client) => !client.socket.destroyed),
    'the keep-alive connections are kept',
  );
});

test.run();
