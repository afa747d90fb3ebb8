import { request as httpRequest, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../core/app/app.js';
import { Response } from '../../../core/http/response.js';
import { createAppServer } from '../../../core/http/server.js';
import { waitFor } from '../../helpers/poll.js';
import { closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';
import { plainKernel } from '../../helpers/plain-kernel.js';

const test = suite('node adapter: a stream body made after the client left is stopped at once');

let letAnswer: () => void = () => {};
const answerMay = () => new Promise<void>((resolve) => (letAnswer = resolve));
let body: Readable | null = null;

const app = createApp({ name: 'client-left' }).get('slow_stream', '/slow-stream', async function slowStream() {
  await answerMay();
  // A body that would go on producing, as a live stream does, until it is destroyed.
  body = new Readable({ read() {} });
  body.push('first\n');
  return Response.stream(body, 'text/plain; charset=UTF-8');
});

let server: Server;
let base: string;

test.before(async () => {
  const kernel = plainKernel(app);
  server = createAppServer(() => kernel);
  base = await listenOnLoopback(server);
});
test.after(() => closeServer(server));

test('when the client leaves while an asynchronous controller makes its stream, then the stream is destroyed once it is returned', async () => {
  const closed = new Promise<void>((resolve) => server.once('request', (req) => req.once('close', () => resolve())));
  const client = httpRequest(`${base}/slow-stream`);
  client.on('error', () => {});
  client.end();
  await new Promise((resolve) => setTimeout(resolve, 100));
  client.destroy();
  await closed;
  await new Promise((resolve) => setTimeout(resolve, 50));
  letAnswer();
  assert.ok(await waitFor(() => body !== null && body.destroyed, 2_000), 'the body was destroyed');
});

test.run();
