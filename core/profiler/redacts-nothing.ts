import { CONFIG_COLLECTOR, collectConfig } from './collectors/config-collector.js';
import { CUSTOM_PREFIX, collectCustomPanels } from './collectors/custom-collector.js';
import { collectDatabase } from './collectors/database-collector.js';
import { collectDump } from './collectors/dump-collector.js';
import { collectException } from './collectors/exception-collector.js';
import { collectHttpClient } from './collectors/http-client-collector.js';
import { collectSecurity } from './collectors/security-collector.js';
import { collectTime, MEMORY_COLLECTOR } from './collectors/time-collector.js';
import type { CollectContext } from './collectors/collect-context.js';
import type { RouterData } from './profile.js';
import { eventRecordShowsRedaction } from './redact-event-record.js';
import { sentOnceId } from './handoff/request-record.js';
import { serialisedJson } from '../debug/request-recording.js';
import { BODY_CAP } from './request-collector.js';
import { showsRedaction } from './shows-redaction.js';
import { DATABASE_COLLECTOR } from '../debug/database-query.js';
import { DUMP_COLLECTOR } from '../debug/dump.js';
import { HTTP_CLIENT_COLLECTOR } from '../debug/http-client-capture.js';
import { STOPWATCH_COLLECTOR } from '../debug/stopwatch.js';

/** The app entries a collector reads (build-profile.ts): a record carrying any other is stored as its profile. */
const READ_ENTRIES = new Set([
  CONFIG_COLLECTOR,
  DUMP_COLLECTOR,
  HTTP_CLIENT_COLLECTOR,
  STOPWATCH_COLLECTOR,
  MEMORY_COLLECTOR,
  DATABASE_COLLECTOR,
]);

/** The panels, after the request's, exception and log, that can hold an app's text (the events panel holds the dispatcher's names only). */
const TEXT_PANELS: readonly ((context: CollectContext) => unknown)[] = [
  collectTime,
  collectSecurity,
  collectHttpClient,
  collectDatabase,
  collectDump,
  collectCustomPanels,
];

/**
 * Whether the redaction policy leaves a request's record as it is: no panel built from it would show
 * REDACTED, the request panel (collected into `context`) lists no redaction and met no secret value,
 * its request body, if any, is all kept (within BODY_CAP), and every app entry in it is read by a
 * collector. Only then may the profiler worker store the record itself (stored-record.ts), without
 * building its profile: the dispatcher's own log records are checked once per source
 * (redact-event-record.ts), and the events panel, which holds names only, is not built.
 * `router`: the routing panel the worker built for the record. The configuration, sent once and
 * referred to by every record, is the exception: when the policy redacts it, its redacted panel's JSON
 * is set in `sentOnce` under its trace name id, for the stored record to carry in its place.
 */
export function redactsNothing(context: CollectContext, router: RouterData, sentOnce: Map<number, string>): boolean {
  const { request, trace, requestData, secrets } = context;
  if (request.bodySize > BODY_CAP || requestData.redacted.length > 0 || secrets.size > 0) return false;
  for (const name of trace.entries.keys()) if (!READ_ENTRIES.has(name) && !name.startsWith(CUSTOM_PREFIX)) return false;
  if (showsRedaction(requestData) || showsRedaction(router)) return false;
  // The exception's own headers may hold a secret value, which the log would be scrubbed of.
  if (showsRedaction(collectException(context)) || secrets.size > 0) return false;
  const route = request.attributes.route;
  for (const record of trace.log.records) if (eventRecordShowsRedaction(record, secrets, route)) return false;
  for (const collect of TEXT_PANELS) if (showsRedaction(collect(context))) return false;
  const config = collectConfig(context);
  if (!showsRedaction(config)) return true;
  const id = sentOnceId(context.entries.get(CONFIG_COLLECTOR)?.[0]);
  if (id === undefined) return false;
  sentOnce.set(id, serialisedJson(config) ?? JSON.stringify(config));
  return true;
}
