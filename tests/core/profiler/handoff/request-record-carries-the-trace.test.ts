import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../../core/app/app.js';
import { Request } from '../../../../core/http/request.js';
import { buildKernel } from '../../../../core/kernel/build-kernel.js';
import { recordingTools } from '../../../../core/debug/recording-tools.js';
import { RecordingTrace, traceNames } from '../../../../core/kernel/request-trace.js';
import { ByteReader, ByteWriter } from '../../../../core/profiler/handoff/byte-writer.js';
import { readRequestRecord, writeRequestRecord } from '../../../../core/profiler/handoff/request-record.js';
import { liveTraceFacts } from '../../../../core/profiler/trace-facts.js';
import { buildProfile } from '../../../../core/profiler/build-profile.js';
import { toStoredForm } from '../../../../core/profiler/storage/stored-form.js';
import { RouteCollection } from '../../../../core/routing/route-collection.js';
import { htmlErrorRenderer } from '../../../../render/error-renderer.js';
import { serialiseOnce } from '../../../../core/debug/request-recording.js';

const test = suite(
  'the hand-off record carries the trace: names once, entries when there are any, facts equal to the live ones',
);

const app = createApp({ name: 'record' })
  .get('dump', '/dump', ({ trace }) => {
    trace.addEntry('dump', { nested: { list: [1, 'two', null] } });
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    trace.addEntry('http_client', cyclic);
    return 'dumped';
  })
  .get('plain', '/plain', () => 'plain')
  .get('numbers', '/numbers', ({ trace }) => {
    trace.addEntry('counters', { heapUsed: 123_456_789, ratio: 0.25, negative: -3 });
    trace.addEntry('counters', { notFinite: Number.NaN, count: 1 });
    trace.addEntry('counters', {});
    return 'counted';
  });

async function handled(kernel: ReturnType<typeof buildKernel>, target: string) {
  const request = new Request({ method: 'GET', target, headers: { host: '127.0.0.1:8000' } });
  const response = await kernel.handle(request);
  const trace = kernel.traceOf(request);
  if (!(trace instanceof RecordingTrace)) throw new Error('not traced');
  trace.token = target === '/dump' ? 'aaa111' : 'bbb222';
  trace.responded(request.elapsed());
  return { request, response, trace };
}

test('when records are read in order by a reader that knew no name, then each trace reads back as the live one, entries included', async () => {
  const kernel = buildKernel(app, {
    debug: true,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
  const writer = new ByteWriter();
  const first = await handled(kernel, '/dump');
  writeRequestRecord(writer, first.request, first.trace, first.response, 0, traceNames(), 0);
  const known = traceNames().length;
  kernel.dispatcher.addListener('kernel.response', 'LateListener::registeredAfterTheFirstRecord', () => {});
  const second = await handled(kernel, '/plain');
  writeRequestRecord(writer, second.request, second.trace, second.response, 0, traceNames(), known);

  const reader = new ByteReader(writer.take());
  const names: string[] = [];
  const one = readRequestRecord(reader, names);
  const two = readRequestRecord(reader, names);
  assert.ok(reader.done);
  const live = liveTraceFacts(first.request, first.trace);
  assert.equal(JSON.parse(JSON.stringify(one.trace)), JSON.parse(JSON.stringify(live)));
  assert.equal(one.trace.log.records, live.log.records);
  assert.equal(
    [...one.trace.entries],
    [
      ['dump', [{ nested: { list: [1, 'two', null] } }]],
      ['http_client', [{ name: 'loop', self: '[circular]' }]],
    ],
  );
  assert.is(two.trace.entries.size, 0);
  assert.ok(
    two.trace.events.some((e) => e.listeners.some((l) => l.listener === 'LateListener::registeredAfterTheFirstRecord')),
    'a name registered later came with the later record',
  );
  assert.equal(
    JSON.parse(JSON.stringify(two.trace)),
    JSON.parse(JSON.stringify(liveTraceFacts(second.request, second.trace))),
  );
});

test('when the worker builds a profile from a record, then the store writes its Notified event records as references to the events panel', async () => {
  const kernel = buildKernel(app, {
    debug: true,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
  const { request, response, trace } = await handled(kernel, '/plain');
  const writer = new ByteWriter();
  writeRequestRecord(writer, request, trace, response, 0, traceNames(), 0);
  const decoded = readRequestRecord(new ByteReader(writer.take()), []);
  const profile = buildProfile(decoded.request, decoded.trace, decoded.response, new RouteCollection());
  const stored = toStoredForm(profile).collectors.log.records as unknown[];
  const refs = stored.filter(Array.isArray) as number[][];
  assert.is(
    refs.length,
    profile.collectors.events.events.reduce((n, e) => n + e.listeners.length, 0),
    'one reference per listener call',
  );
  assert.equal(refs[0].slice(0, 2), [0, 0], 'the first: kernel.request, its first listener');
});

test('when an entry is a plain object of finite numbers, then it travels as names and numbers, not as JSON text, and reads back equal to what JSON would give', async () => {
  const kernel = buildKernel(app, {
    debug: true,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
  const { request, response, trace } = await handled(kernel, '/numbers');
  const writer = new ByteWriter();
  writeRequestRecord(writer, request, trace, response, 0, traceNames(), 0);
  const bytes = writer.take();
  const text = Buffer.from(bytes).toString('latin1');
  assert.not.ok(text.includes('"heapUsed"'), 'the number record is not JSON');
  assert.ok(
    text.includes('{"notFinite":null,"count":1}'),
    'a NaN is not a finite number: that value goes as JSON, as before',
  );
  const read = readRequestRecord(new ByteReader(bytes), []);
  const live = trace.entries!.get('counters')!;
  assert.equal(read.trace.entries.get('counters'), JSON.parse(JSON.stringify(live)));
});

test('when every request records the same serialised-once value, then its JSON travels with the first record only, and each record reads it back', async () => {
  const kernel = buildKernel(app, {
    debug: true,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
  const config = serialiseOnce({ marker: 'sent-once-4f1c', options: { debug: true, port: 8000 } });
  const writer = new ByteWriter();
  const known = traceNames().length;
  const first = await handled(kernel, '/plain');
  first.trace.addEntry('config', config);
  writeRequestRecord(writer, first.request, first.trace, first.response, 0, traceNames(), known);
  const firstBytes = writer.length;
  const sent = traceNames().length;
  const second = await handled(kernel, '/plain');
  second.trace.addEntry('config', config);
  writeRequestRecord(writer, second.request, second.trace, second.response, 0, traceNames(), sent);
  const bytes = writer.take();
  const text = (from: number, to?: number) =>
    Buffer.from(bytes, from, to === undefined ? undefined : to - from).toString('latin1');
  assert.ok(text(0, firstBytes).includes('sent-once-4f1c'), 'the first record carries the JSON');
  assert.not.ok(text(firstBytes).includes('sent-once-4f1c'), 'the second refers to it');

  const reader = new ByteReader(bytes);
  const names = [...traceNames().slice(0, known)];
  const one = readRequestRecord(reader, names);
  const two = readRequestRecord(reader, names);
  assert.equal(one.trace.entries.get('config'), [JSON.parse(JSON.stringify(config))]);
  assert.equal(two.trace.entries.get('config'), [JSON.parse(JSON.stringify(config))]);
});

test.run();
