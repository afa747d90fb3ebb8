import { HTTP_CLIENT_COLLECTOR } from '../../debug/http-client-capture.js';
import { callSpan, OutgoingCall } from '../../debug/outgoing-call.js';
import { spanMs } from '../../http/request.js';
import type { HttpCallData, HttpClientData } from '../panel-data.js';
import { isValidToken } from '../token.js';
import { redactRecord, redactText, redactUrl, type SecretValues } from '../../redaction/index.js';
import { receivedBodyPreview } from '../request-collector.js';
import { appEntries } from './app-entries.js';
import type { CollectContext } from './collect-context.js';
import { headerPairs, type HeaderPair } from './header-pairs.js';

/** The HTTP client panel: the outgoing calls the request's code made, headers and URLs redacted. */
export function collectHttpClient({ entries, secrets }: CollectContext): HttpClientData {
  const calls = appEntries(entries, HTTP_CLIENT_COLLECTOR).map((value) =>
    callData(value instanceof OutgoingCall ? seen(value) : given(value), secrets),
  );
  return {
    calls,
    totalTime: calls.reduce((sum, call) => sum + (call.duration ?? call.headersAfter ?? 0), 0),
    errors: calls.filter((call) => call.error !== null || (call.status ?? 0) >= 400).length,
  };
}

/** A call before redaction, in the panel's words. */
interface CallFacts {
  client: unknown;
  method: unknown;
  url: unknown;
  start: unknown;
  duration: unknown;
  status: unknown;
  statusText: unknown;
  requestHeaders: readonly HeaderPair[];
  responseHeaders: readonly HeaderPair[];
  requestSize: unknown;
  responseSize: unknown;
  error: unknown;
  timedOut: unknown;
  headersAfter: unknown;
  bodyUnread: unknown;
  /** the first bytes of a text answer the app read, and the bytes it received; null when none were kept */
  body: { head: Buffer; received: number } | null;
}

/** A call the capture saw: its URL, header pairs, sizes and times made from what the client's events carried. */
function seen(call: OutgoingCall): CallFacts {
  const requestHeaders = headerPairs(call.requestHeaders);
  const responseHeaders = headerPairs(call.responseHeaders);
  return {
    client: call.client,
    method: call.method,
    url: `${call.urlHead}${call.path}`,
    start: spanMs(call.origin, call.startAt),
    duration: call.duration,
    status: call.status,
    statusText: call.statusText,
    requestHeaders,
    responseHeaders,
    requestSize: call.requestSize ?? contentLength(requestHeaders),
    responseSize:
      contentLength(responseHeaders) ?? (call.endAt !== null && call.bodyHead !== null ? call.bodyReceived : null),
    error: call.error,
    timedOut: call.timedOut,
    headersAfter: call.headersAt === null ? null : callSpan(call.origin, call.startAt, call.headersAt),
    // the record was handed off at kernel.terminate: a head without an end is an answer whose body the app never read
    bodyUnread: call.headersAt !== null && call.endAt === null && call.error === null,
    // what arrived of an answer the app never read to its end is not what it read
    body:
      call.bodyHead === null || call.endAt === null || call.error !== null
        ? null
        : { head: Buffer.concat(call.bodyHead), received: call.bodyReceived },
  };
}

/** A call the app's code added itself (trace.addEntry): plain data with the panel's field names, headers as pairs. */
function given(value: unknown): CallFacts {
  const call: Record<string, unknown> =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const {
    client,
    method,
    url,
    start,
    duration,
    status,
    statusText,
    requestSize,
    responseSize,
    error,
    timedOut,
    headersAfter,
    bodyUnread,
  } = call;
  return {
    client,
    method,
    url,
    start,
    duration,
    status,
    statusText,
    requestSize,
    responseSize,
    error,
    timedOut,
    headersAfter,
    bodyUnread,
    body: null,
    requestHeaders: givenPairs(call.requestHeaders),
    responseHeaders: givenPairs(call.responseHeaders),
  };
}

function givenPairs(pairs: unknown): HeaderPair[] {
  return Array.isArray(pairs) ? pairs.filter(Array.isArray).map(([name, value]) => [String(name), String(value)]) : [];
}

function callData(call: CallFacts, secrets: SecretValues): HttpCallData {
  const redacted: string[] = [];
  // a value the request already showed to be secret (a password query value sent on) goes under any header name
  const requestHeaders = scrubValues(redactRecord('header', grouped(call.requestHeaders), redacted, secrets), secrets);
  const responseHeaders = scrubValues(
    redactRecord('header', grouped(call.responseHeaders), redacted, secrets),
    secrets,
  );
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
    headersAfter: typeof call.headersAfter === 'number' ? call.headersAfter : null,
    bodyUnread: call.bodyUnread === true,
    body:
      call.body === null
        ? null
        : receivedBodyPreview(
            headerValue(call.responseHeaders, 'content-type'),
            call.body.head,
            call.body.received,
            redacted,
            secrets,
          ),
    profile: debugToken(call.responseHeaders),
    redacted,
  };
}

function scrubValues(
  headers: Record<string, string | string[]>,
  secrets: SecretValues,
): Record<string, string | string[]> {
  if (secrets.size === 0) return headers;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    headers[name] = Array.isArray(value) ? value.map((v) => secrets.scrub(v)) : secrets.scrub(value);
  }
  return headers;
}

/** The callee's token when it answered with one of the kind this store keeps (read before redaction, which may hide the header). */
function debugToken(pairs: readonly HeaderPair[]): string | null {
  const value = pairs.find(([name]) => name.toLowerCase() === 'x-debug-token')?.[1]?.trim();
  return value !== undefined && isValidToken(value) ? value : null;
}

function headerValue(pairs: readonly HeaderPair[], name: string): string | null {
  return pairs.find(([n]) => n.toLowerCase() === name)?.[1] ?? null;
}

function contentLength(pairs: readonly HeaderPair[]): number | null {
  const value = pairs.find(([name]) => name === 'content-length')?.[1];
  const n = value === undefined ? NaN : Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

function grouped(pairs: readonly HeaderPair[]): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of pairs) {
    const known = record[name];
    record[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  }
  return record;
}
