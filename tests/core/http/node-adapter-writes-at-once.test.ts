import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../core/app/app.js';
import { createAppServer } from '../../../core/http/server.js';
import { fetchText } from '../../helpers/serve.js';
import { closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';
import { plainKernel } from '../../helpers/plain-kernel.js';

const test = suite(
  'node adapter: a request without a body that the kernel answers at once is written before its request event returns',
);

const app = createApp({ name: 'at-once' })
  .get('hello', '/hello/{name}', function hello({ params }) {
    return { hello: params.name };
  })
  .get('later', '/later', async function later() {
    await new Promise((resolve) => setImmediate(resolve));
    return 'later';
  })
  .post('echo', '/echo', async function echo({ request }) {
    return request.text();
  });

let server: Server;
let base: string;
/** per path: whether the response had ended when the adapter's request listener returned */
const endedAtOnce = new Map<string, boolean>();
let answered = 0;
/** the requests the adapter said were pending (not answered when their request event returned) */
const pending = new Set<string>();

test.before(async () => {
  const kernel = plainKernel(app);
  server = createAppServer(() => kernel, {
    onResponse: () => void answered++,
    onPending: (res) => void pending.add(`${res.req.method} ${res.req.url}`),
  });
  // Listeners run in order: this one runs right after the adapter's has returned.
  server.on(
    'request',
    (req: IncomingMessage, res: ServerResponse) => void endedAtOnce.set(`${req.method} ${req.url}`, res.writableEnded),
  );
  base = await listenOnLoopback(server);
});
test.after(() => closeServer(server));

test('when the route and controller are synchronous, then the 200 is written before the request event returns', async () => {
  const r = await fetchText(`${base}/hello/world`);
  assert.is(r.status, 200);
  assert.is(r.body, '{"hello":"world"}');
  assert.is(endedAtOnce.get('GET /hello/world'), true);
});

test('when no route matches, then the 404 is written before the request event returns, with its production page', async () => {
  const r = await fetchText(`${base}/nope`);
  assert.is(r.status, 404);
  assert.ok(r.body.includes('The server returned a "404 Not Found".'));
  assert.is(endedAtOnce.get('GET /nope'), true);
});

test('when the controller is async, then the response follows later and is the same as before', async () => {
  const r = await fetchText(`${base}/later`);
  assert.is(r.status, 200);
  assert.is(r.body, 'later');
  assert.is(endedAtOnce.get('GET /later'), false);
});

test('when the request has a body, then it is read first and the answer echoes it', async () => {
  const r = await fetchText(`${base}/echo`, {
    method: 'POST',
    body: 'posted',
    headers: { 'content-type': 'text/plain' },
  });
  assert.is(r.status, 200);
  assert.is(r.body, 'posted');
  assert.is(endedAtOnce.get('POST /echo'), false);
});

test('when requests are answered at once or later, then only the later ones are told to onPending', async () => {
  await fetchText(`${base}/hello/pending-check`);
  await fetchText(`${base}/later`);
  await fetchText(`${base}/echo`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
  assert.is(pending.has('GET /hello/pending-check'), false);
  assert.is(pending.has('GET /later'), true);
  assert.is(pending.has('POST /echo'), true);
});

test('when a request is answered, then onResponse is called once for it', async () => {
  const before = answered;
  await fetchText(`${base}/hello/again`);
  assert.is(answered, before + 1);
});

test.run();
