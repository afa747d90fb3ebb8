import diagnostics from 'node:diagnostics_channel';
import { isPreviewable } from '../http/previewable-type.js';
import { OutgoingCall, type RawHeaders } from './outgoing-call.js';
import { currentRecorder } from './request-scope.js';

export const HTTP_CLIENT_COLLECTOR = 'http_client';

export { OutgoingCall };

// The subscribers run on the request path, for every call: they keep references and clock
// readings only. Everything the panel shows is derived by the HTTP client collector, in the worker.

const pending = new WeakMap<object, OutgoingCall>();

interface UndiciRequest {
  origin: unknown;
  method: unknown;
  path: unknown;
  headers: RawHeaders;
  body: unknown;
}

function onUndiciCreate(message: unknown): void {
  const recorder = currentRecorder();
  if (!recorder) return;
  const request = (message as { request: UndiciRequest }).request;
  const { body } = request;
  const size =
    body === null || body === undefined
      ? null
      : typeof body === 'string'
        ? Buffer.byteLength(body)
        : body instanceof Uint8Array
          ? body.byteLength
          : null;
  const call = new OutgoingCall(
    'undici',
    recorder.origin,
    performance.now(),
    request.method,
    request.origin,
    request.path,
    request.headers,
    size,
  );
  pending.set(request, call);
  recorder.add(HTTP_CLIENT_COLLECTOR, call);
}

function onUndiciHeaders(message: unknown): void {
  const { request, response } = message as {
    request: object;
    response: { statusCode: number; statusText?: unknown; headers: RawHeaders };
  };
  const call = pending.get(request);
  if (!call) return;
  call.headersAt = performance.now();
  call.status = response.statusCode;
  call.statusText = response.statusText ?? '';
  call.responseHeaders = response.headers;
  if (previewable(response.headers)) watchBody(request as UndiciBodySink, call);
}

interface UndiciBodySink {
  onData?: (chunk: Uint8Array) => unknown;
}

/**
 * A text answer's chunks are copied as undici hands them to this one request (Node 20's undici publishes
 * no body channel): its onData is wrapped on the request object alone, the chunk passed on untouched.
 */
function watchBody(request: UndiciBodySink, call: OutgoingCall): void {
  const pass = request.onData;
  if (typeof pass !== 'function') return;
  request.onData = function (this: unknown, chunk: Uint8Array) {
    if (chunk instanceof Uint8Array) call.received(chunk);
    return pass.call(this, chunk);
  };
}

/** A text answer sent as it is (undici hands on the bytes before fetch decodes gzip and the like), by undici's raw header list. */
function previewable(headers: RawHeaders): boolean {
  if (!Array.isArray(headers)) return false;
  let type: string | null = null;
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = String(headers[i]);
    if (name.length === 12 && name.toLowerCase() === 'content-type') type = String(headers[i + 1]);
    else if (
      name.length === 16 &&
      name.toLowerCase() === 'content-encoding' &&
      String(headers[i + 1])
        .trim()
        .toLowerCase() !== 'identity'
    )
      return false;
  }
  return isPreviewable(type);
}

// A call leaves `pending` as it ends: a WeakMap that only the garbage collector empties grows, and its set() slows down.
function onUndiciTrailers(message: unknown): void {
  const { request } = message as { request: object };
  const call = pending.get(request);
  if (!call) return;
  call.endAt = performance.now();
  pending.delete(request);
}

function onUndiciError(message: unknown): void {
  const { request, error } = message as { request: object; error: unknown };
  const call = pending.get(request);
  if (!call) return;
  failed(call, error);
  pending.delete(request);
}

interface NodeClientRequest {
  method: string;
  protocol: string;
  host: string;
  path: string;
  getHeaders(): Record<string, unknown>;
}

function onHttpStart(message: unknown): void {
  const recorder = currentRecorder();
  if (!recorder) return;
  const request = (message as { request: NodeClientRequest }).request;
  const requestHeaders = request.getHeaders();
  const host = requestHeaders.host ?? request.host;
  const call = new OutgoingCall(
    'node:http',
    recorder.origin,
    performance.now(),
    request.method,
    `${request.protocol}//${host}`,
    request.path,
    requestHeaders,
    null,
  );
  pending.set(request, call);
  recorder.add(HTTP_CLIENT_COLLECTOR, call);
  // Only 'close': a 'response', 'timeout' or 'error' listener would change what Node does for the app.
  (request as unknown as NodeJS.EventEmitter).once('close', () => {
    if (!pending.has(request)) return;
    pending.delete(request);
    const socketError = (request as unknown as { destroyed?: boolean; errored?: unknown }).errored;
    failed(call, socketError ?? new Error('The connection closed before the response ended.'));
  });
}

function onHttpFinish(message: unknown): void {
  const { request, response } = message as {
    request: object;
    response: { statusCode: number; statusMessage?: unknown; headers: Record<string, unknown> };
  };
  const call = pending.get(request);
  if (!call) return;
  const now = performance.now();
  call.status = response.statusCode;
  call.statusText = response.statusMessage ?? '';
  call.responseHeaders = response.headers;
  call.headersAt ??= now;
  call.endAt = now;
  pending.delete(request);
}

function failed(call: OutgoingCall, error: unknown): void {
  const name = (error as Error)?.name;
  call.timedOut ||=
    name === 'TimeoutError' ||
    (error as { code?: string })?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    (error as { code?: string })?.code === 'UND_ERR_BODY_TIMEOUT';
  call.error = String((error as Error)?.message ?? error);
  call.endAt = performance.now();
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
