import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../core/app/app.js';
import { Request } from '../../../core/http/request.js';
import { Response } from '../../../core/http/response.js';
import { buildKernel } from '../../../core/kernel/build-kernel.js';
import { recordingTools } from '../../../core/debug/recording-tools.js';
import { KernelEvents } from '../../../core/kernel/kernel-events.js';
import { htmlErrorRenderer } from '../../../render/error-renderer.js';

const app = () =>
  createApp({ name: 'sync' })
    .get('hello', '/hello/{name}', function hello({ params }) {
      return { hello: params.name };
    })
    .get('later', '/later', async function later() {
      await new Promise((resolve) => setImmediate(resolve));
      return 'later';
    })
    .get('fails', '/fails', async function fails() {
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('failed later');
    })
    .get('slash', '/slash/', function slash() {
      return 'slash';
    });

function kernelOf(debug: boolean) {
  return buildKernel(app(), {
    debug,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
}

function get(path: string, headers: Record<string, string> = {}): Request {
  return new Request({ method: 'GET', target: path, headers: { host: '127.0.0.1:8000', ...headers } });
}

const test = suite(
  'Kernel.respond: the Response itself when nothing waits, a promise from the first listener or controller that does',
);

for (const debug of [false, true]) {
  const mode = debug ? 'debug' : '--no-debug';
  test(`${mode}: when every listener and the controller return at once, then respond() gives the 200 Response, not a promise`, () => {
    const response = kernelOf(debug).respond(get('/hello/world'));
    assert.ok(response instanceof Response);
    assert.is((response as Response).status, 200);
    assert.is((response as Response).body, '{"hello":"world"}');
  });

  test(`${mode}: when no route matches, then respond() gives the 404 Response itself, its message unchanged`, () => {
    const request = get('/nope', { accept: 'application/json' });
    const response = kernelOf(debug).respond(request);
    assert.ok(response instanceof Response);
    assert.is((response as Response).status, 404);
    // In debug the message goes on with " at <file> line <n>" of the router listener.
    const logged = request.log.records.find((r) => r.level === 'ERROR')?.message ?? '';
    assert.ok(
      logged.startsWith('Uncaught exception NotFoundHttpError: "No route found for "GET http://127.0.0.1:8000/nope""'),
      logged,
    );
  });

  test(`${mode}: when the slash-toggled path matches, then respond() gives the 301 itself`, () => {
    const response = kernelOf(debug).respond(get('/slash'));
    assert.ok(response instanceof Response);
    assert.is((response as Response).status, 301);
    assert.is((response as Response).header('location'), 'http://127.0.0.1:8000/slash/');
  });

  test(`${mode}: when the controller returns a promise, then respond() gives a promise of its answer`, async () => {
    const pending = kernelOf(debug).respond(get('/later'));
    assert.ok(pending instanceof Promise);
    assert.is((await pending).body, 'later');
  });

  test(`${mode}: when an async controller rejects, then the promise resolves to the 500 error response`, async () => {
    const pending = kernelOf(debug).respond(get('/fails'));
    assert.ok(pending instanceof Promise);
    assert.is((await pending).status, 500);
  });

  test(`${mode}: when a kernel.response or a kernel.finish_request listener is added to a built kernel, then each is called`, () => {
    const onResponse = kernelOf(debug);
    onResponse.dispatcher.addListener(
      KernelEvents.RESPONSE,
      'Test::header',
      (event) => void event.response!.setHeader('X-Seen', 'response'),
    );
    assert.is((onResponse.respond(get('/hello/world')) as Response).header('x-seen'), 'response');
    const onFinish = kernelOf(debug);
    let finished = 0;
    onFinish.dispatcher.addListener(KernelEvents.FINISH_REQUEST, 'Test::count', () => void finished++);
    assert.is((onFinish.respond(get('/hello/world')) as Response).status, 200);
    assert.is(finished, 1);
  });

  test(`${mode}: when a kernel.response listener rejects, then the answer is the error response and handle() still resolves`, async () => {
    const kernel = kernelOf(debug);
    kernel.dispatcher.addListener(KernelEvents.RESPONSE, 'Test::rejects', async (event) => {
      if (event.response?.status === 200) throw new Error('response listener failed');
    });
    const response = await kernel.handle(get('/hello/world'));
    assert.is(response.status, 500);
  });

  test(`${mode}: when a kernel.exception listener rejects, then the error is logged CRITICAL and the 404 is answered`, async () => {
    const kernel = kernelOf(debug);
    kernel.dispatcher.addListener(
      KernelEvents.EXCEPTION,
      'Test::rejects',
      async () => {
        throw new Error('exception listener failed');
      },
      0,
    );
    const request = get('/nope');
    const response = await kernel.handle(request);
    assert.is(response.status, 500);
    assert.ok(
      request.log.records.some(
        (r) => r.level === 'CRITICAL' && r.message === 'A kernel.exception listener failed: exception listener failed',
      ),
    );
  });
}

test.run();
