import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Request } from '../../core/http/request.js';
import { KernelEvent } from '../../core/kernel/kernel-event.js';
import { RecordingTrace } from '../../core/kernel/request-trace.js';
import { MEMORY_COLLECTOR } from '../../core/profiler/collectors/time-collector.js';
import type { MemoryData } from '../../core/profiler/panel-data.js';
import { RequestRecording } from '../../web-profiler/recording-listener.js';

const test = suite('the memory a profiled request records');

/** A profiled request whose trace last read the clock at `at` (ms, performance.now()). */
function answeredAt(recording: RequestRecording, at: number): MemoryData {
  const request = new Request({
    method: 'GET',
    target: '/',
    headers: { host: 'localhost' },
    body: Buffer.alloc(0),
    clientIp: '127.0.0.1',
  });
  const trace = new RecordingTrace(at, () => {});
  trace.token = 'abc123';
  recording.atResponse(new KernelEvent(request, trace));
  return trace.entries?.get(MEMORY_COLLECTOR)?.[0] as MemoryData;
}

test('when requests are answered within one millisecond, then they share one reading of the heap, and a later one reads it again', () => {
  const recording = new RequestRecording(null, new Map());
  const first = answeredAt(recording, 10_000);
  assert.ok(first.heapUsed > 0 && first.heapTotal > 0 && first.rss > 0);
  assert.is(answeredAt(recording, 10_000.4), first, 'the same reading within the millisecond');
  assert.is(answeredAt(recording, 10_000.9), first);
  const later = answeredAt(recording, 10_001.5);
  assert.is.not(later, first, 'read again a millisecond on');
  assert.ok(later.heapUsed > 0);
});

test.run();
