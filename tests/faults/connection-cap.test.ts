import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_TIMEOUTS } from '../../core/http/server.js';
import { defaultMaxConnections, MAX_CONNECTIONS, readOpenFileLimit } from '../../core/http/connection-limit.js';
import { serveFaults, waitFor, type FaultServer } from './fault-server.js';
import { rawClient, type RawClient } from './raw-client.js';

const CAP = 3;

/** Sends a keep-alive GET on `client` and waits for its whole 200. */
async function get(client: RawClient, path: string): Promise<void> {
  const before = client.received().length;
  client.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await waitFor(`the answer to ${path}`, () => {
    const text = client.received().slice(before);
    const length = /\r\ncontent-length: (\d+)\r\n/i.exec(text);
    return length !== null && text.length - text.indexOf('\r\n\r\n') - 4 >= Number(length[1]);
  });
  assert.match(client.received().slice(before), /^HTTP\/1\.1 200 OK\r\n/);
}

const test = suite(`the connection cap (maxConnections ${CAP})`);
let t: FaultServer;
const clients: RawClient[] = [];
test.before(async () => {
  t = await serveFaults({ timeouts: { maxConnections: CAP } });
});
test.after(async () => {
  for (const client of clients) client.socket.destroy();
  await t.stop();
});

test(`when ${CAP} keep-alive connections are open, then a further one is closed unanswered while the ${CAP} are still served; once one leaves, a new one is served`, async () => {
  for (let i = 0; i < CAP; i++) {
    clients.push(rawClient(t.base));
    await get(clients[i], `/hello/open${i}`);
  }
  const refused = rawClient(t.base);
  refused.socket.write('GET /hello/refused HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  assert.is(await refused.closed, '', 'the connection past the cap is closed without an answer');
  for (let i = 0; i < CAP; i++) await get(clients[i], `/hello/again${i}`);

  clients.shift()!.socket.destroy();
  await waitFor('a new connection served after one left', async () => {
    const next = rawClient(t.base);
    next.socket.write('GET /hello/next HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    return (await next.closed).startsWith('HTTP/1.1 200 OK\r\n');
  });
});

test.run();

const defaults = suite('the default connection cap');

defaults('when no cap is given, then the server has one, 1024 at most', () => {
  assert.ok(
    DEFAULT_TIMEOUTS.maxConnections > 0 && DEFAULT_TIMEOUTS.maxConnections <= MAX_CONNECTIONS,
    String(DEFAULT_TIMEOUTS.maxConnections),
  );
});

defaults('when the open-file limit is 512, then the cap leaves a quarter of it to the store and the app', () => {
  assert.is(defaultMaxConnections(512), 384);
  assert.is(defaultMaxConnections(20_000), 1024);
  assert.is(defaultMaxConnections(100), 36);
  assert.is(defaultMaxConnections(null), 1024);
});

defaults('when /proc/self/limits says "Max open files 512 4096", then the soft limit 512 is read', () => {
  assert.is(
    readOpenFileLimit(
      'Limit                     Soft Limit           Hard Limit           Units\nMax open files            512                  4096                 files\n',
    ),
    512,
  );
  assert.is(readOpenFileLimit('Max open files            unlimited            unlimited            files\n'), null);
});

defaults.run();
