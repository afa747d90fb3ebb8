import type { Request } from '../../core/http/request.js';
import { RecordingTrace } from '../../core/kernel/request-trace.js';

/** The trace a debug kernel would give `request`, profiled under `token`: for building a profile without a kernel. */
export function traceFor(request: Request, token: string | null): RecordingTrace {
  const trace = new RecordingTrace(request.start, request.log.sink);
  trace.token = token;
  return trace;
}
