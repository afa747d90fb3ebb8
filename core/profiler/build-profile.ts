import type { RouteCollection } from '../routing/route-collection.js';
import { collectEvents } from './collectors/events-collector.js';
import { collectException } from './collectors/exception-collector.js';
import { collectLog } from './collectors/log-collector.js';
import { collectRouter } from './collectors/router-collector.js';
import { collectSecurity } from './collectors/security-collector.js';
import { collectTime } from './collectors/time-collector.js';
import { collectConfig } from './collectors/config-collector.js';
import { collectCustomPanels } from './collectors/custom-collector.js';
import { collectDump } from './collectors/dump-collector.js';
import { collectHttpClient } from './collectors/http-client-collector.js';
import type { CollectContext } from './collectors/collect-context.js';
import type { Profile } from './profile.js';
import { SecretValues } from './redact.js';
import { collectRequest } from './request-collector.js';
import type { RequestFacts, ResponseFacts } from './request-facts.js';

export const DURATION_KEY = 'profiler.duration';

/**
 * Builds the stored profile from what the kernel recorded of the request, one collector per panel
 * (collectors/, the request panel first: the secrets it meets are scrubbed from every later text).
 * Every value it stores has been through the policy of redact.ts, and no store redacts again.
 * Runs in the profiler worker (handoff/build-batch.ts).
 */
export function buildProfile(request: RequestFacts, response: ResponseFacts, routes: RouteCollection): Profile {
  const secrets = new SecretValues();
  const requestData = collectRequest(request, response, secrets);
  const duration = (request.extra.get(DURATION_KEY) as number | undefined) ?? request.elapsed();
  const context: CollectContext = { request, response, routes, secrets, requestData, duration };
  const exception = collectException(context);
  const log = collectLog(context);
  return {
    version: 1,
    token: request.token ?? '',
    status: response.status,
    ip: request.clientIp,
    method: request.method,
    url: requestData.url,
    time: request.startedAt,
    duration,
    collectors: {
      request: requestData,
      exception,
      log,
      events: collectEvents(context),
      time: collectTime(context),
      router: collectRouter(context),
      security: collectSecurity(context),
      http_client: collectHttpClient(context),
      dump: collectDump(context),
      config: collectConfig(context),
      ...withCustomPanels(collectCustomPanels(context)),
    },
  };
}

function withCustomPanels(custom: Profile['collectors']['custom']): Pick<Profile['collectors'], 'custom'> {
  return custom === undefined ? {} : { custom };
}
