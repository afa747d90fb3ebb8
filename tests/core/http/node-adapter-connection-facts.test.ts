import type { Server, ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../core/app/app.js';
import { createAppServer } from '../../../core/http/server.js';
import { closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';
import { plainKernel } from '../../helpers/plain-kernel.js';
import { waitFor } from '../../helpers/poll.js';

const test = suite(
  'node adapter: what a request learns from its connection and its headers, on every request of a keep-alive connection',
);

const app = createApp({ name: 'facts' }).get('facts', '/facts', function facts({ request }) {
  return {
    server: request.serverAddress,
    clientIp: request.clientIp,
    scheme: request.scheme,
    host: request.host,
    cookie: request.headers.cookie ?? null,
    setCookie: request.headers['set-cookie'] ?? null,
    accept: request.headers.accept ?? null,
  };
});

let server: Server;
let port: number;
/** the responses onRequest was given, in order, and whether each was still unanswered then */
const started: { res: ServerResponse; unanswered: boolean }[] = [];

test.before(async () => {
  const kernel = plainKernel(app);
  server = createAppServer(() => kernel, {
    onRequest: (res) => void started.push({ res, unanswered: !res.headersSent && !res.writableEnded }),
  });
  await listenOnLoopback(server);
  port = (server.address() as AddressInfo).port;
});
test.after(() => closeServer(server));

/** Sends `raw` on one new connection and resolves to what came back once `count` answers were read (Content-Length bodies). */
function exchange(raw: string, count: number): Promise<{ bodies: string[]; localPort: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no ${count} answers within 5 s:\n${received}`));
    }, 5_000);
    socket.on('error', reject);
    socket.on('connect', () => socket.write(raw));
    socket.on('data', (chunk) => {
      received += chunk;
      const bodies: string[] = [];
      let rest = received;
      for (;;) {
        const end = rest.indexOf('\r\n\r\n');
        if (end === -1) break;
        const length = Number(/content-length: (\d+)/i.exec(rest.slice(0, end))?.[1] ?? 0);
        if (rest.length < end + 4 + length) break;
        bodies.push(rest.slice(end + 4, end + 4 + length));
        rest = rest.slice(end + 4 + length);
      }
      if (bodies.length < count) return;
      clearTimeout(timer);
      const localPort = socket.localPort!;
      socket.destroy();
      resolve({ bodies, localPort });
    });
  });
}

const get = (headers: string) => `GET /facts HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}\r\n`;

test('when two requests come on one connection, then each knows the server address, client and scheme of that connection', async () => {
  const { bodies } = await exchange(get('') + get(''), 2);
  for (const body of bodies) {
    const facts = JSON.parse(body);
    assert.equal(facts.server, { address: '127.0.0.1', port });
    assert.is(facts.clientIp, '127.0.0.1');
    assert.is(facts.scheme, 'http');
    assert.is(facts.host, `127.0.0.1:${port}`);
  }
});

test("when the second request of a connection sends other headers, then it sees its own headers, not the first one's", async () => {
  const { bodies } = await exchange(get('Accept: text/first\r\n') + get('Accept: text/second\r\n'), 2);
  assert.is(JSON.parse(bodies[0]).accept, 'text/first');
  assert.is(JSON.parse(bodies[1]).accept, 'text/second');
});

test('when a header is sent twice, then its values are joined as node joins them (Set-Cookie with ", ", Cookie with "; ")', async () => {
  const { bodies } = await exchange(get('Set-Cookie: a=1\r\nSet-Cookie: b=2\r\nCookie: c=3\r\nCookie: d=4\r\n'), 1);
  const facts = JSON.parse(bodies[0]);
  assert.is(facts.setCookie, 'a=1, b=2');
  assert.is(facts.cookie, 'c=3; d=4');
});

test('when requests come, then onRequest is given each response first, before it is answered, refused ones too', async () => {
  const before = started.length;
  const { bodies } = await exchange(get('') + get('Host: 127.0.0.2\r\n'), 2);
  assert.match(bodies[1], /more than one Host header/);
  assert.ok(await waitFor(() => started.length === before + 2, 5_000), 'onRequest was called for both requests');
  assert.ok(started.slice(before).every((call) => call.unanswered));
});

test.run();
