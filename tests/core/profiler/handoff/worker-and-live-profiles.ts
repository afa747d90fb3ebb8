import { Request } from '../../../../core/http/request.js';
import type { Kernel } from '../../../../core/kernel/kernel.js';
import { RecordingTrace, traceNames } from '../../../../core/kernel/request-trace.js';
import { buildProfile } from '../../../../core/profiler/build-profile.js';
import { ByteReader, ByteWriter } from '../../../../core/profiler/handoff/byte-writer.js';
import { readRequestRecord, writeRequestRecord } from '../../../../core/profiler/handoff/request-record.js';
import type { Profile } from '../../../../core/profiler/profile.js';
import { liveTraceFacts } from '../../../../core/profiler/trace-facts.js';
import type { RouteCollection } from '../../../../core/routing/route-collection.js';

export interface ProfiledRequest {
  target: string;
  headers?: Record<string, string>;
}

/**
 * Profiles built in the worker's way (records written, read back by one reader) and the main
 * thread's way, for the same GET requests; tokens are `tokenPrefix` and the request's index.
 */
export async function workerAndLiveProfiles(
  kernel: Kernel,
  routes: RouteCollection,
  requests: ProfiledRequest[],
  tokenPrefix: string,
): Promise<{ worker: Profile[]; live: Profile[] }> {
  const writer = new ByteWriter();
  const live: Profile[] = [];
  let known = 0;
  // Every request handled after an await, as a server's are: their errors' stacks are the same text.
  await null;
  for (const [i, { target, headers }] of requests.entries()) {
    const request = new Request({ method: 'GET', target, headers: { host: '127.0.0.1:8000', ...headers } });
    const response = await kernel.handle(request);
    const trace = kernel.traceOf(request);
    if (!(trace instanceof RecordingTrace)) throw new Error('not traced');
    trace.token = `${tokenPrefix}${i}`;
    trace.responded(request.elapsed());
    writeRequestRecord(writer, request, trace, response, 0, traceNames(), known);
    known = traceNames().length;
    live.push(buildProfile(request, liveTraceFacts(request, trace), response, routes));
  }
  const reader = new ByteReader(writer.take());
  const names: string[] = [];
  const worker: Profile[] = [];
  while (!reader.done) {
    const { request, trace, response } = readRequestRecord(reader, names);
    worker.push(buildProfile(request, trace, response, routes));
  }
  return { worker, live };
}
