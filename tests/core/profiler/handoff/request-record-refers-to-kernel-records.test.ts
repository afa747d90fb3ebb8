import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../../core/app/app.js';
import { Request } from '../../../../core/http/request.js';
import { buildKernel } from '../../../../core/kernel/build-kernel.js';
import { recordingTools } from '../../../../core/debug/recording-tools.js';
import { PropagationRecord, RecordingTrace, traceNames } from '../../../../core/kernel/request-trace.js';
import { MatchedRouteRecord } from '../../../../core/kernel/router-listener.js';
import { ByteReader, ByteWriter } from '../../../../core/profiler/handoff/byte-writer.js';
import { readRequestRecord, writeRequestRecord } from '../../../../core/profiler/handoff/request-record.js';
import { liveTraceFacts } from '../../../../core/profiler/trace-facts.js';
import { htmlErrorRenderer } from '../../../../render/error-renderer.js';

const test = suite(
  'the hand-off record refers to the records the kernel makes ("Matched route", propagation) instead of copying their contexts',
);

const app = createApp({ name: 'refs' }).get('hello', '/hello/{name}', ({ params }) => ({ hello: params.name }));

async function recorded(debug: boolean, target: string) {
  const kernel = buildKernel(app, {
    debug,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
  const request = new Request({ method: 'GET', target, headers: { host: '127.0.0.1:8000' } });
  const response = await kernel.handle(request);
  return { kernel, request, response };
}

test('when a matched request is recorded, then no context of the router or the dispatcher is in its bytes, and it reads back as the live log', async () => {
  const { kernel, request, response } = await recorded(true, '/hello/w%C3%B6rld?x=1');
  const trace = kernel.traceOf(request);
  if (!(trace instanceof RecordingTrace)) throw new Error('not traced');
  trace.token = 'ccc333';
  assert.ok(request.log.records.some((record) => record instanceof MatchedRouteRecord));
  assert.ok(
    request.log.records.some((record) => record instanceof PropagationRecord),
    'the view listener stops propagation',
  );
  const writer = new ByteWriter();
  writeRequestRecord(writer, request, trace, response, 0, traceNames(), 0);
  const bytes = writer.take();
  const text = Buffer.from(bytes).toString('latin1');
  assert.not.ok(text.includes('route_parameters'), 'the Matched route context is not written');
  assert.not.ok(text.includes('stopped propagation'), 'the propagation record is not written as text');
  const read = readRequestRecord(new ByteReader(bytes), []);
  const live = liveTraceFacts(request, trace);
  assert.equal(read.trace.log.records, live.log.records);
  const matched = live.log.records.find((record) => record.message === 'Matched route "hello".');
  assert.equal(matched?.context, {
    route: 'hello',
    route_parameters: { _route: 'hello', _controller: 'hello', name: 'wörld' },
    request_uri: 'http://127.0.0.1:8000/hello/w%C3%B6rld?x=1',
    method: 'GET',
  });
  assert.equal(JSON.parse(JSON.stringify(request.log.records[0])), {
    time: request.log.records[0].time,
    level: 'INFO',
    channel: 'request',
    message: 'Matched route "hello".',
    context: matched?.context,
  });
});

test('when the profiler is off, then the Matched route record still gives its context when read', async () => {
  const { request } = await recorded(false, '/hello/you');
  const [record] = request.log.records;
  assert.instance(record, MatchedRouteRecord);
  assert.equal(record.context, {
    route: 'hello',
    route_parameters: { _route: 'hello', _controller: 'hello', name: 'you' },
    request_uri: 'http://127.0.0.1:8000/hello/you',
    method: 'GET',
  });
});

test('when another kernel handled a request, then this kernel has no trace of it', async () => {
  const { kernel, request } = await recorded(true, '/hello/one');
  const other = buildKernel(app, {
    debug: true,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
  assert.instance(kernel.traceOf(request), RecordingTrace);
  assert.is.not(other.traceOf(request), kernel.traceOf(request));
  assert.not.instance(other.traceOf(request), RecordingTrace);
});

test.run();
