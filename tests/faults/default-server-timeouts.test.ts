import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_TIMEOUTS } from '../../core/http/server.js';
import { fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

// The slowloris and slow-upload suites choose short timeouts of their own. This checks what
// `app serve` gets, which passes none: the server is started as serveForTest starts it, without
// `timeouts`, and must still bound how long a client may take over its headers and its request.

const test = suite("the dev server's header and request timeouts, when none are given");
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

test('when no timeouts are given, then headersTimeout and requestTimeout are set, finite, and the header one is the shorter', () => {
  const server = t.server.server;
  assert.is(server.headersTimeout, DEFAULT_TIMEOUTS.headersTimeout);
  assert.is(server.requestTimeout, DEFAULT_TIMEOUTS.requestTimeout);
  for (const [name, value] of [
    ['headersTimeout', server.headersTimeout],
    ['requestTimeout', server.requestTimeout],
  ] as const) {
    assert.ok(
      Number.isFinite(value) && value > 0,
      `${name} is ${value}: 0 would let a slow client hold its socket for ever`,
    );
    assert.ok(value <= 60_000, `${name} is ${value} ms: a slowloris client would hold its socket that long`);
  }
  assert.ok(server.headersTimeout <= server.requestTimeout, 'node requires headersTimeout <= requestTimeout');
  assert.ok(
    server.keepAliveTimeout > 0 && server.keepAliveTimeout <= server.headersTimeout,
    `keepAliveTimeout ${server.keepAliveTimeout}`,
  );
});

test('when no timeouts are given, then node checks for expired requests often enough to enforce them (not its 30 s default)', () => {
  assert.ok(
    DEFAULT_TIMEOUTS.connectionsCheckingInterval > 0 &&
      DEFAULT_TIMEOUTS.connectionsCheckingInterval <= DEFAULT_TIMEOUTS.headersTimeout / 2,
    `connectionsCheckingInterval ${DEFAULT_TIMEOUTS.connectionsCheckingInterval} ms`,
  );
});

test('when the server runs with its default timeouts, then it serves', async () => {
  assert.is((await fetchText(`${t.base}/hello/world`)).status, 200);
});

test.run();
