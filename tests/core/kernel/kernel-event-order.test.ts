import type { Server } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDemoApp } from '../../../core/app/demo-app.js';
import { createAppServer } from '../../../core/http/server.js';
import { buildKernel } from '../../../core/kernel/build-kernel.js';
import { recordingTools } from '../../../core/debug/recording-tools.js';
import { htmlErrorRenderer } from '../../../render/error-renderer.js';
import type { Kernel } from '../../../core/kernel/kernel.js';
import { liveTraceFacts } from '../../../core/profiler/trace-facts.js';
import { fetchText } from '../../helpers/serve.js';
import { closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';

/** What one request went through, seen from kernel.terminate: event names and the listeners called. */
interface Seen {
  path: string;
  events: string[];
  listeners: Record<string, string[]>;
  terminatedAt: number;
}

const test = suite(
  'Kernel.handle: the kernel events in order, kernel.view for non-responses, kernel.terminate after the response (demo app, real HTTP)',
);
let kernel: Kernel;
let server: Server;
let base: string;
const seen: Seen[] = [];
/** while set, kernel.terminate listeners wait for it */
let gate: Promise<void> | null = null;

test.before(async () => {
  kernel = buildKernel(createDemoApp(), {
    debug: true,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
  kernel.dispatcher.addListener('kernel.terminate', 'Test::onKernelTerminate', async (event) => {
    if (gate) await gate;
    const r = event.request;
    const { events } = liveTraceFacts(r, event.trace);
    seen.push({
      path: r.path,
      events: events.map((e) => e.name),
      listeners: Object.fromEntries(events.map((e) => [e.name, e.listeners.map((l) => l.listener)])),
      terminatedAt: Date.now(),
    });
  });
  server = createAppServer(() => kernel);
  base = await listenOnLoopback(server);
});
test.after(() => closeServer(server));

async function terminated(path: string): Promise<Seen> {
  const end = Date.now() + 5000;
  for (;;) {
    const found = seen.find((s) => s.path === path);
    if (found) return found;
    if (Date.now() > end) throw new Error(`kernel.terminate never ran for ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('when a controller returns a string, then request, controller, controller_arguments, view, response, finish_request, terminate in that order, and the answer is HTML', async () => {
  const r = await fetchText(`${base}/hello/world`);
  assert.is(r.status, 200);
  assert.match(r.headers['content-type'], /^text\/html/);
  const s = await terminated('/hello/world');
  assert.equal(s.events, [
    'kernel.request',
    'kernel.controller',
    'kernel.controller_arguments',
    'kernel.view',
    'kernel.response',
    'kernel.finish_request',
    'kernel.terminate',
  ]);
  assert.equal(
    s.listeners['kernel.request'],
    ['RouterListener::onKernelRequest', 'FirewallListener::onKernelRequest'],
    'the router first, then the firewall',
  );
});

test('when a controller returns an object, then kernel.view turns it into JSON', async () => {
  const r = await fetchText(`${base}/contact`, { method: 'POST', body: 'abcd' });
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'application/json');
  assert.equal(JSON.parse(r.body), { received: 4 });
  assert.ok((await terminated('/contact')).events.includes('kernel.view'));
});

test('when a controller returns a Response, then there is no kernel.view', async () => {
  assert.is((await fetchText(`${base}/`)).status, 200);
  const s = await terminated('/');
  assert.not.ok(s.events.includes('kernel.view'), s.events.join());
  assert.ok(s.events.indexOf('kernel.response') < s.events.indexOf('kernel.terminate'));
});

test('when the controller throws, then the error goes through kernel.exception, then kernel.response and kernel.terminate', async () => {
  assert.is((await fetchText(`${base}/boom`)).status, 500);
  const s = await terminated('/boom');
  assert.equal(s.events, [
    'kernel.request',
    'kernel.controller',
    'kernel.controller_arguments',
    'kernel.exception',
    'kernel.response',
    'kernel.finish_request',
    'kernel.terminate',
  ]);
});

test('when routing fails, then kernel.exception follows kernel.request, with no controller event', async () => {
  assert.is((await fetchText(`${base}/robots.txt`)).status, 404);
  const s = await terminated('/robots.txt');
  assert.equal(s.events, [
    'kernel.request',
    'kernel.exception',
    'kernel.response',
    'kernel.finish_request',
    'kernel.terminate',
  ]);
});

test('when a kernel.terminate listener is still busy, then the client already has the whole response', async () => {
  let release!: () => void;
  gate = new Promise<void>((resolve) => (release = resolve));
  try {
    const answer = fetchText(`${base}/hello/terminate`);
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000));
    const r = await Promise.race([answer, timeout]);
    assert.ok(r !== null, 'the response waited for kernel.terminate');
    assert.is(r!.status, 200);
    assert.ok(r!.body.includes('Hello terminate!'));
    const received = Date.now();
    assert.not.ok(
      seen.some((s) => s.path === '/hello/terminate'),
      'kernel.terminate had not finished yet',
    );
    release();
    assert.ok((await terminated('/hello/terminate')).terminatedAt >= received);
  } finally {
    gate = null;
    release();
  }
});

test('kernel.terminate is scheduled only when someone listens: a kernel without listeners says so, one with says so', () => {
  const bare = buildKernel(createDemoApp(), {
    debug: false,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
  assert.is(bare.terminates(), false, 'outside debug nothing listens to kernel.terminate: the adapter skips it');
  bare.dispatcher.addListener('kernel.terminate', 'Test::late', () => undefined);
  assert.is(bare.terminates(), true, 'a listener added after the kernel was built is seen');
  assert.is(kernel.terminates(), true);
});

test.run();
