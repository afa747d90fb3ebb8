import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../core/app/app.js';
import type { ControllerContext } from '../../../core/kernel/controller.js';
import { Request } from '../../../core/http/request.js';
import { buildKernel } from '../../../core/kernel/build-kernel.js';
import { recordingTools } from '../../../core/debug/recording-tools.js';
import {
  CALL_STRIDE,
  NO_TRACE,
  NotifiedRecord,
  RecordingTrace,
  traceNames,
  type RequestTrace,
} from '../../../core/kernel/request-trace.js';
import { liveTraceFacts } from '../../../core/profiler/trace-facts.js';
import { htmlErrorRenderer } from '../../../render/error-renderer.js';

const test = suite('RequestTrace: the kernel records each request on a trace of its own, not on the Request');

function kernelSeeing(debug: boolean, seen: RequestTrace[]) {
  const app = createApp({ name: 'trace' })
    .get('hello', '/hello/{name}', ({ trace, params }: ControllerContext) => {
      seen.push(trace);
      trace.addEntry('dump', { name: params.name });
      trace.addEntry('dump', [1, 2]);
      trace.addEntry('custom', 'text');
      return `Hello ${params.name}`;
    })
    .get('dir', '/dir/', () => 'dir');
  return buildKernel(app, { debug, root: process.cwd(), errorRenderer: htmlErrorRenderer, recording: recordingTools });
}

const get = (target: string) => new Request({ method: 'GET', target, headers: { host: '127.0.0.1:8000' } });

test('when a debug kernel handles a request, then the controller, the events and the kernel see one recording trace', async () => {
  const seen: RequestTrace[] = [];
  const kernel = kernelSeeing(true, seen);
  const request = get('/hello/world');
  const fromEvents: RequestTrace[] = [];
  kernel.dispatcher.addListener('kernel.response', 'Test::onKernelResponse', (event) => {
    fromEvents.push(event.trace);
  });
  assert.is((await kernel.handle(request)).status, 200);
  const trace = kernel.traceOf(request);
  assert.instance(trace, RecordingTrace);
  assert.equal(seen, [trace]);
  assert.equal(fromEvents, [trace]);
  const facts = liveTraceFacts(request, trace);
  assert.equal(
    facts.phases.map((p) => p.name),
    ['routing', 'firewall', 'controller', 'view', 'response'],
  );
  assert.equal(
    facts.events.map((e) => e.name),
    [
      'kernel.request',
      'kernel.controller',
      'kernel.controller_arguments',
      'kernel.view',
      'kernel.response',
      'kernel.finish_request',
    ],
  );
  assert.equal(
    facts.events[0].listeners.map((l) => l.listener),
    ['RouterListener::onKernelRequest', 'FirewallListener::onKernelRequest'],
  );
  const calls = facts.events.flatMap((e) => e.listeners);
  const starts = calls.map((call) => call.start ?? -1);
  assert.ok(
    starts.every((start, i) => start >= 0 && (i === 0 || start >= starts[i - 1])),
    `each call keeps its own start, in call order: ${starts}`,
  );
  assert.ok(
    calls.every((call) => call.start! + call.duration <= request.elapsed()),
    'within the request',
  );
  assert.equal(facts.security, { decision: 'none', rule: null, message: 'No firewall rule matches this path.' });
  assert.equal(
    [...facts.entries],
    [
      ['dump', [{ name: 'world' }, [1, 2]]],
      ['custom', ['text']],
    ],
    'the entries, by collector, in order',
  );
  assert.is(kernel.traceOf(get('/hello/other')), NO_TRACE, 'a request the kernel never saw has no trace');
});

test('when the router redirects, then the trace keeps the redirect path', async () => {
  const kernel = kernelSeeing(true, []);
  const request = get('/dir');
  assert.is((await kernel.handle(request)).status, 301);
  assert.is(liveTraceFacts(request, kernel.traceOf(request)).redirect, '/dir/');
});

test('when a kernel runs without debug, then every request, its events and its controller get NO_TRACE, which keeps nothing', async () => {
  const seen: RequestTrace[] = [];
  const kernel = kernelSeeing(false, seen);
  const request = get('/hello/world');
  assert.is((await kernel.handle(request)).status, 200);
  assert.equal(seen, [NO_TRACE]);
  assert.is(kernel.traceOf(request), NO_TRACE);
  NO_TRACE.token = 'abc123';
  assert.is(NO_TRACE.token, null, 'the shared no-op trace never holds a token');
  assert.is(request.log.records.filter((r) => r.channel === 'event').length, 0, 'no listener call is logged');
  assert.not.ok(
    'events' in request || 'phases' in request || 'extra' in request || 'token' in request || 'traced' in request,
    'the Request keeps HTTP facts only',
  );
});

test('when listeners of one event run one after another, then each call starts where the one before it ended, and its Notified record is stamped with that end', async () => {
  const kernel = kernelSeeing(true, []);
  kernel.dispatcher.addListener('kernel.response', 'Test::first', () => {}, -10);
  kernel.dispatcher.addListener('kernel.response', 'Test::second', () => {}, -20);
  const request = get('/hello/world');
  await kernel.handle(request);
  const trace = kernel.traceOf(request) as RecordingTrace;
  const names = ['Test::first', 'Test::second'];
  const rows: number[][] = [];
  for (let at = 0; at < trace.calls.length; at += CALL_STRIDE) rows.push(trace.calls.slice(at, at + CALL_STRIDE));
  const ours = rows.filter((row) => names.includes(traceNames()[row[1]]));
  assert.is(ours.length, 2);
  assert.is(ours[1][2], ours[0][3], "the second call starts at the first one's end");
  const notified = request.log.records.filter((record): record is NotifiedRecord => record instanceof NotifiedRecord);
  for (const record of notified) {
    const end = trace.calls[record.call * CALL_STRIDE + 3];
    assert.is(
      record.time,
      Math.floor(performance.timeOrigin + end),
      `the record of call ${record.call} is stamped with its end`,
    );
  }
  const routing = trace.phases.slice(0, 3);
  assert.is(traceNames()[routing[0]], 'routing');
  assert.is(routing[1], rows[0][2], "routing starts with the router's call");
  const controllerArguments = rows.find(
    (row) => traceNames()[row[1]] === 'ControllerListener::onKernelControllerArguments',
  )!;
  const controller = rows.find((row) => traceNames()[row[1]] === 'ControllerListener::onKernelController')!;
  assert.is(
    controllerArguments[2],
    controller[3],
    "an event dispatched right after another starts at its last call's end",
  );
  const response = rows.filter((row) => trace.events[row[0]] === trace.events.at(-2));
  const phase = trace.phases.slice(-3);
  assert.is(phase[2], response.at(-1)![3], 'the response phase ends with its last listener call');
});

test.run();
