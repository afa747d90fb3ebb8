import { RouteCollection } from '../routing/route-collection.js';
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
import { collectDatabase } from './collectors/database-collector.js';
import type { CollectContext } from './collectors/collect-context.js';
import type { Collectors, Profile } from './profile.js';
import { SecretValues } from '../redaction/index.js';
import { summaryOf } from './profile-summary.js';
import { collectRequest } from './request-collector.js';
import type { RequestFacts, ResponseFacts } from './request-facts.js';
import type { TraceFacts } from './trace-facts.js';

/** read by no collector when the routing panel comes with the record */
const NO_ROUTES = new RouteCollection();

/**
 * The panels a stored record carries built (stored-record.ts): the routing panel, as the profiler
 * worker built it from the route table the request was matched against; and, in the redacted
 * record of a request that carried a secret, the panels of the app's entries, redacted, which the
 * record then holds instead of the entries.
 */
export type RoutingFacts = Pick<Collectors, 'router'> &
  Partial<Pick<Collectors, EntryPanel>> & {
    /** where the worker's redaction replaced values, as the request panel lists them: read again, a redacted value is not found again */
    redacted?: string[];
  };

/** The panels built from the app's entries (RequestTrace.addEntry). */
export type EntryPanel = 'time' | 'http_client' | 'db' | 'dump' | 'config' | 'custom';
export const ENTRY_PANELS: readonly EntryPanel[] = ['time', 'http_client', 'db', 'dump', 'config', 'custom'];

/**
 * What every collector is given (collectors/collect-context.ts), the request panel collected first:
 * the secrets it meets are scrubbed from every later text.
 */
export function collectContext(
  request: RequestFacts,
  trace: TraceFacts,
  response: ResponseFacts,
  routes: RouteCollection | RoutingFacts,
): CollectContext {
  const secrets = new SecretValues();
  return {
    request,
    trace,
    response,
    routes: routes instanceof RouteCollection ? routes : NO_ROUTES,
    secrets,
    requestData: collectRequest(request, response, secrets, trace.token),
    duration: trace.duration,
    entries: trace.entries,
  };
}

/**
 * Builds the profile from a request's HTTP facts and what the kernel recorded of it (its trace),
 * one collector per panel (collectors/, the request panel first). A collector finds the app's
 * entries for its panel in `context.entries.get(<its name>)`; entries no collector reads are ignored.
 * Every value it holds has been through the policy of redact.ts, and no store redacts again.
 * Runs when a stored record is read (stored-record.ts), with the routing panel the worker built
 * instead of the route table; in the profiler worker only for a request whose record holds
 * something the policy redacts (handoff/build-batch.ts).
 */
export function buildProfile(
  request: RequestFacts,
  trace: TraceFacts,
  response: ResponseFacts,
  routes: RouteCollection | RoutingFacts,
): Profile {
  return profileOf(collectContext(request, trace, response, routes), routes);
}

/** The profile of a collect context; `routes` as collectContext was given them. */
export function profileOf(context: CollectContext, routes: RouteCollection | RoutingFacts): Profile {
  const { request, trace, response, requestData } = context;
  const built: Omit<RoutingFacts, 'router'> = routes instanceof RouteCollection ? {} : routes;
  const exception = collectException(context);
  const log = collectLog(context);
  // The summary's fields, but the route, which the request panel holds.
  const { route: _route, ...summary } = summaryOf(request, trace, response, requestData);
  return {
    version: 1,
    ...summary,
    collectors: {
      request: built.redacted === undefined ? requestData : { ...requestData, redacted: built.redacted },
      exception,
      log,
      events: collectEvents(context),
      time: built.time ?? collectTime(context),
      router: routes instanceof RouteCollection ? collectRouter(context) : routes.router,
      security: collectSecurity(context),
      http_client: built.http_client ?? collectHttpClient(context),
      ...withDatabase('db' in built ? built.db : collectDatabase(context)),
      dump: built.dump ?? collectDump(context),
      config: 'config' in built ? built.config : collectConfig(context),
      ...withCustomPanels('custom' in built ? built.custom : collectCustomPanels(context)),
    },
  };
}

function withDatabase(db: Profile['collectors']['db']): Pick<Profile['collectors'], 'db'> {
  return db === undefined ? {} : { db };
}

function withCustomPanels(custom: Profile['collectors']['custom']): Pick<Profile['collectors'], 'custom'> {
  return custom === undefined ? {} : { custom };
}
