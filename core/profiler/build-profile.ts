import type { RequestFacts as Request, ResponseFacts as Response } from './request-facts.js';
import { EXCEPTION_KEY } from '../kernel/error-listener.js';
import { explain } from '../routing/explain.js';
import type { RouteCollection } from '../routing/route-collection.js';
import type { ExceptionData, Profile, SecurityData } from './profile.js';
import { redactException, redactLogRecord } from './redact-log.js';
import { redactText, SecretValues } from './redact.js';
import { collectRequest } from './request-collector.js';

export const DURATION_KEY = 'profiler.duration';

/**
 * Builds the stored profile from what the kernel already holds for the request, redacted: every
 * value it stores has been through the policy of redact.ts, and no store redacts again.
 */
export function buildProfile(request: Request, response: Response, routes: RouteCollection): Profile {
  const secrets = new SecretValues();
  const requestData = collectRequest(request, response, secrets);
  const recorded = (request.extra.get(EXCEPTION_KEY) as ExceptionData | undefined) ?? null;
  const exception = recorded && redactException(recorded, secrets);
  const security = (request.extra.get('security') as SecurityData | undefined) ?? { decision: 'none', rule: null, message: null };
  const duration = (request.extra.get(DURATION_KEY) as number | undefined) ?? request.elapsed();
  const unmatched = request.attributes.route === null && (response.status === 404 || response.status === 405);
  const redirect = (request.extra.get('redirect') as string | undefined) ?? null;
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
      log: { records: request.log.records.map((record) => redactLogRecord(record, secrets, request.attributes.route)), errors: request.log.errors, warnings: request.log.warnings },
      events: { events: request.events.slice() },
      time: { duration, phases: request.phases.slice() },
      router: {
        route: redirect ? null : request.attributes.route,
        params: requestData.routeParams,
        redirect,
        explain: unmatched ? explain(routes, request.method, request.path) : null,
      },
      security: security.message === null ? security : { ...security, message: secrets.scrub(redactText(security.message)) },
    },
  };
}

