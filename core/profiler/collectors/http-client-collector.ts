import { HTTP_CLIENT_COLLECTOR, type OutgoingCall } from '../../debug/http-client-capture.js';
import type { HttpCallData, HttpClientData } from '../panel-data.js';
import { redactRecord, redactText } from '../redact.js';
import { appEntries } from './app-entries.js';
import type { CollectContext } from './collect-context.js';
import { redactUrl } from './redact-url.js';

/** The HTTP client panel: the outgoing calls the request's code made, headers and URLs redacted. */
export function collectHttpClient({ entries, secrets }: CollectContext): HttpClientData {
  const calls = (appEntries(entries, HTTP_CLIENT_COLLECTOR) as OutgoingCall[]).map((call): HttpCallData => {
    const redacted: string[] = [];
    const requestHeaders = redactRecord('header', grouped(call.requestHeaders), redacted, secrets);
    const responseHeaders = redactRecord('header', grouped(call.responseHeaders), redacted, secrets);
    return {
      client: call.client === 'node:http' ? 'node:http' : 'undici',
      method: String(call.method),
      url: redactUrl(String(call.url), secrets, redacted),
      start: Number(call.start) || 0,
      duration: typeof call.duration === 'number' ? call.duration : null,
      status: typeof call.status === 'number' ? call.status : null,
      statusText: secrets.scrub(redactText(String(call.statusText ?? ''))),
      requestHeaders,
      responseHeaders,
      requestSize: typeof call.requestSize === 'number' ? call.requestSize : null,
      responseSize: typeof call.responseSize === 'number' ? call.responseSize : null,
      error: call.error === null || call.error === undefined ? null : secrets.scrub(redactText(String(call.error))),
      timedOut: call.timedOut === true,
      redacted,
    };
  });
  return {
    calls,
    totalTime: calls.reduce((sum, call) => sum + (call.duration ?? 0), 0),
    errors: calls.filter((call) => call.error !== null || (call.status ?? 0) >= 400).length,
  };
}

function grouped(pairs: readonly [string, string][] | undefined): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of pairs ?? []) {
    const known = record[name];
    record[name] = known === undefined ? String(value) : Array.isArray(known) ? [...known, String(value)] : [known, String(value)];
  }
  return record;
}
