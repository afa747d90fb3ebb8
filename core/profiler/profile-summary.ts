import type { ProfileSummary, RequestData } from './profile.js';
import type { RequestFacts, ResponseFacts } from './request-facts.js';
import type { TraceFacts } from './trace-facts.js';

/** The summary of the profile a request's facts build (build-profile.ts), read from them and its request panel. */
export function summaryOf(
  request: RequestFacts,
  trace: TraceFacts,
  response: ResponseFacts,
  requestData: RequestData,
): ProfileSummary {
  return {
    token: trace.token ?? '',
    status: response.status,
    ip: request.clientIp,
    method: request.method,
    url: requestData.url,
    time: request.startedAt,
    duration: trace.duration,
    route: requestData.route ?? null,
  };
}
