import diagnostics from 'node:diagnostics_channel';
import { currentRecorder, type RequestRecorder } from './request-scope.js';

export const HTTP_CLIENT_COLLECTOR = 'http_client';

/** One outgoing HTTP request as it was seen, filled in as its events arrive (times in ms since the incoming request started). */
export interface OutgoingCall {
  client: 'undici' | 'node:http';
  method: string;
  url: string;
  start: number;
  /** when the response head arrived; null before */
  headersAt: number | null;
  /** null while in flight when the incoming request was handed off */
  duration: number | null;
  status: number | null;
  statusText: string;
  requestHeaders: [string, string][];
  responseHeaders: [string, string][];
  /** bytes, from the body given or Content-Length; null when unknown */
  requestSize: number | null;
  responseSize: number | null;
  error: string | null;
  timedOut: boolean;
}

interface Pending { call: OutgoingCall; recorder: RequestRecorder }

const pending = new WeakMap<object, Pending>();

interface UndiciRequest { origin: string; method: string; path: string; headers: unknown; body: unknown }

function onUndiciCreate(message: unknown): void {
  const recorder = currentRecorder();
  if (!recorder) return;
  const request = (message as { request: UndiciRequest }).request;
  const requestHeaders = undiciPairs(request.headers);
  const call: OutgoingCall = {
    client: 'undici', method: String(request.method), url: `${request.origin}${request.path}`,
    start: recorder.elapsed(), headersAt: null, duration: null, status: null, statusText: '',
    requestHeaders, responseHeaders: [], requestSize: bodySize(request.body, requestHeaders), responseSize: null, error: null, timedOut: false,
  };
  pending.set(request, { call, recorder });
  recorder.add(HTTP_CLIENT_COLLECTOR, call);
}

function onUndiciHeaders(message: unknown): void {
  const { request, response } = message as { request: object; response: { statusCode: number; statusText?: string; headers: unknown } };
  const entry = pending.get(request);
  if (!entry) return;
  entry.call.headersAt = entry.recorder.elapsed();
  entry.call.status = response.statusCode;
  entry.call.statusText = String(response.statusText ?? '');
  entry.call.responseHeaders = undiciPairs(response.headers);
  entry.call.responseSize = contentLength(entry.call.responseHeaders);
}

function onUndiciTrailers(message: unknown): void {
  const entry = pending.get((message as { request: object }).request);
  if (!entry) return;
  entry.call.duration = entry.recorder.elapsed() - entry.call.start;
  pending.delete((message as { request: object }).request);
}

function onUndiciError(message: unknown): void {
  const { request, error } = message as { request: object; error: unknown };
  const entry = pending.get(request);
  if (!entry) return;
  failed(entry.call, error, entry.recorder);
  pending.delete(request);
}

interface NodeClientRequest { method: string; protocol: string; host: string; path: string; getHeaders(): Record<string, unknown> }

function onHttpStart(message: unknown): void {
  const recorder = currentRecorder();
  if (!recorder) return;
  const request = (message as { request: NodeClientRequest }).request;
  const requestHeaders = nodePairs(request.getHeaders());
  const host = requestHeaders.find(([name]) => name === 'host')?.[1] ?? request.host;
  const call: OutgoingCall = {
    client: 'node:http', method: request.method, url: `${request.protocol}//${host}${request.path}`,
    start: recorder.elapsed(), headersAt: null, duration: null, status: null, statusText: '',
    requestHeaders, responseHeaders: [], requestSize: contentLength(requestHeaders), responseSize: null, error: null, timedOut: false,
  };
  pending.set(request, { call, recorder });
  recorder.add(HTTP_CLIENT_COLLECTOR, call);
  // Only 'close': a 'response', 'timeout' or 'error' listener would change what Node does for the app.
  (request as unknown as NodeJS.EventEmitter).once('close', () => {
    if (!pending.has(request)) return;
    pending.delete(request);
    const socketError = (request as unknown as { destroyed?: boolean; errored?: unknown }).errored;
    failed(call, socketError ?? new Error('The connection closed before the response ended.'), recorder);
  });
}

function onHttpFinish(message: unknown): void {
  const { request, response } = message as { request: object; response: { statusCode: number; statusMessage?: string; headers: Record<string, unknown> } };
  const entry = pending.get(request);
  if (!entry) return;
  const { call, recorder } = entry;
  call.status = response.statusCode;
  call.statusText = String(response.statusMessage ?? '');
  call.responseHeaders = nodePairs(response.headers);
  call.responseSize = contentLength(call.responseHeaders);
  call.headersAt ??= recorder.elapsed();
  call.duration = recorder.elapsed() - call.start;
  pending.delete(request);
}

function failed(call: OutgoingCall, error: unknown, recorder: RequestRecorder): void {
  const name = (error as Error)?.name;
  call.timedOut ||= name === 'TimeoutError' || (error as { code?: string })?.code === 'UND_ERR_HEADERS_TIMEOUT'
    || (error as { code?: string })?.code === 'UND_ERR_BODY_TIMEOUT';
  call.error = String((error as Error)?.message ?? error);
  call.duration = recorder.elapsed() - call.start;
}

/** undici's headers: a flat array of names and values (strings or Buffers), or a raw "name: value\r\n" string. */
function undiciPairs(headers: unknown): [string, string][] {
  const pairs: [string, string][] = [];
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([String(headers[i]).toLowerCase(), String(headers[i + 1])]);
  } else if (typeof headers === 'string') {
    for (const line of headers.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) pairs.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
    }
  }
  return pairs;
}

function nodePairs(headers: Record<string, unknown>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    for (const one of Array.isArray(value) ? value : [value]) pairs.push([name.toLowerCase(), String(one)]);
  }
  return pairs;
}

function contentLength(pairs: readonly [string, string][]): number | null {
  const value = pairs.find(([name]) => name === 'content-length')?.[1];
  const n = value === undefined ? NaN : Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

function bodySize(body: unknown, headers: readonly [string, string][]): number | null {
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof Uint8Array) return body.byteLength;
  return contentLength(headers);
}

const SUBSCRIPTIONS: [string, (message: unknown) => void][] = [
  ['undici:request:create', onUndiciCreate],
  ['undici:request:headers', onUndiciHeaders],
  ['undici:request:trailers', onUndiciTrailers],
  ['undici:request:error', onUndiciError],
  ['http.client.request.start', onHttpStart],
  ['http.client.response.finish', onHttpFinish],
];

let capturing = false;

/**
 * Records outgoing HTTP calls (fetch, undici, node:http and https clients) into the recorder of
 * the request that makes them, from now on; calls made outside a recorded request are ignored.
 */
export function startHttpClientCapture(): void {
  if (capturing) return;
  capturing = true;
  for (const [name, handler] of SUBSCRIPTIONS) diagnostics.subscribe(name, handler);
}

/** Stops recording outgoing calls (the HTTP client panel is then empty). */
export function stopHttpClientCapture(): void {
  if (!capturing) return;
  capturing = false;
  for (const [name, handler] of SUBSCRIPTIONS) diagnostics.unsubscribe(name, handler);
}
