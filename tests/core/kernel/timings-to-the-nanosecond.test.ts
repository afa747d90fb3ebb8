import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { requestInProcess } from '../../../core/app/in-process-client.js';
import { createDemoApp } from '../../../core/app/demo-app.js';
import { buildKernel } from '../../../core/kernel/build-kernel.js';
import { recordingTools } from '../../../core/debug/recording-tools.js';
import { htmlErrorRenderer } from '../../../render/error-renderer.js';
import { spanMs } from '../../../core/http/request.js';
import type { Request } from '../../../core/http/request.js';
import { liveTraceFacts, type TraceFacts } from '../../../core/profiler/trace-facts.js';

/** performance.now() counts whole nanoseconds: a duration in ms has at most six decimals, never float noise. */
const WHOLE_NANOSECONDS = /^\d+(\.\d{1,6})?$/;

const test = suite('timings: phases and listener calls are whole nanoseconds');

test('when two instants are nanoseconds apart, then their span is written with no float noise', () => {
  assert.is(String(0.004097 - 0.001037), '0.0030600000000000002', 'a plain subtraction is noisy');
  assert.is(String(spanMs(0.001037, 0.004097)), '0.00306');
  assert.is(spanMs(10, 10), 0);
  assert.is(spanMs(1, 3.5), 2.5);
});

test('when a 200 and a 404 go through the kernel in debug, then every phase, listener call and elapsed time has at most six decimals', async () => {
  const kernel = buildKernel(createDemoApp(), {
    debug: true,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
  const seen: { request: Request; trace: TraceFacts }[] = [];
  kernel.dispatcher.addListener('kernel.terminate', 'Test::onKernelTerminate', (event) => {
    seen.push({ request: event.request, trace: liveTraceFacts(event.request, event.trace) });
  });
  assert.is((await requestInProcess(kernel, 'GET', '/hello/world')).status, 200);
  assert.is((await requestInProcess(kernel, 'GET', '/no-such-page')).status, 404);
  assert.is(seen.length, 2);
  for (const { request, trace } of seen) {
    const values: number[] = [request.elapsed()];
    for (const phase of trace.phases) values.push(phase.start, phase.duration);
    for (const event of trace.events) for (const call of event.listeners) values.push(call.duration);
    assert.ok(trace.phases.length >= 2 && values.length >= 10, `${request.path}: phases and calls were recorded`);
    for (const value of values) assert.match(String(value), WHOLE_NANOSECONDS, `${request.path}: ${value}`);
  }
  assert.ok(
    seen[1].trace.phases.some((p) => p.name === 'exception'),
    'the 404 has its exception phase',
  );
});

test.run();
