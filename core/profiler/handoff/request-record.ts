import { parseQuery, type QueryValues, type RouteAttributes, type ServerAddress } from '../../http/request.js';
import { NOTIFIED_CALL, notifiedMessage } from '../../kernel/event-dispatcher.js';
import type { ExceptionData } from '../../kernel/exception-data.js';
import type { ListenerCall, Phase } from '../../kernel/trace-data.js';
import type { LogLevel, LogRecord } from '../../log/log-record.js';
import { FINGERPRINT_CAP } from '../body-fingerprint.js';
import { DURATION_KEY } from '../build-profile.js';
import { EXCEPTION_KEY } from '../../kernel/error-listener.js';
import { BODY_CAP, previewHead } from '../request-collector.js';
import { redactData } from '../redact-data.js';
import { OpaqueBody, type RequestFacts, type ResponseFacts } from '../request-facts.js';
import type { ByteReader, ByteWriter } from './byte-writer.js';

/**
 * One answered request as the profiler worker receives it: what the kernel recorded and the
 * request and response heads, written field by field (ByteWriter), never as a profile. The
 * worker reads it back into a RecordedRequest and a RecordedResponse, which the profile builder
 * reads as it reads the live ones.
 */

const LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'CRITICAL', 'ALERT', 'EMERGENCY'];
const LEVEL_CODE = new Map(LEVELS.map((level, i) => [level, i]));

const enum Body { None, Text, Bytes, Opaque }
const enum Entry { Record, Notified }

type MarkedRecord = LogRecord & { [NOTIFIED_CALL]?: [number, number] };

/** Writes one request; `routes` names the route table the worker explains 404s with. */
export function writeRequestRecord(w: ByteWriter, request: RequestFacts, response: ResponseFacts, routes: number): void {
  w.uint(routes);
  w.optionalString(request.token);
  w.float(request.startedAt);
  w.float((request.extra.get(DURATION_KEY) as number | undefined) ?? request.elapsed());
  w.string(request.method);
  w.string(request.baseUrl);
  w.string(request.path);
  w.string(request.queryString);
  w.string(request.clientIp);
  w.optionalString(request.serverAddress?.address);
  if (request.serverAddress) w.uint(request.serverAddress.port);
  writePairs(w, request.headers);
  w.uint(request.bodySize);
  w.bytes(request.body.length > BODY_CAP + 1 ? request.body.subarray(0, BODY_CAP + 1) : request.body);

  const { attributes } = request;
  w.optionalString(attributes.route);
  w.optionalString(attributes.controller);
  writePairs(w, attributes.params);
  w.optionalString(request.extra.get('redirect') as string | undefined);
  const security = request.extra.get('security');
  w.optionalString(security === undefined ? null : JSON.stringify(security));
  const exception = request.extra.get(EXCEPTION_KEY) as ExceptionData | undefined;
  w.optionalString(exception === undefined ? null : JSON.stringify(exception));

  writeLog(w, request.log.records as readonly MarkedRecord[]);
  w.uint(request.log.errors);
  w.uint(request.log.warnings);
  w.uint(request.events.length);
  for (const event of request.events) {
    w.string(event.name);
    w.uint(event.listeners.length);
    for (const call of event.listeners) {
      w.string(call.listener);
      w.float(call.duration);
      w.bool(call.stoppedPropagation);
    }
  }
  w.uint(request.phases.length);
  for (const phase of request.phases) {
    w.string(phase.name);
    w.float(phase.start);
    w.float(phase.duration);
  }

  w.uint(response.status);
  w.string(response.statusText);
  writePairs(w, response.headers);
  writeResponseBody(w, response);
}

function writePairs(w: ByteWriter, record: Record<string, string>): void {
  const names = Object.keys(record);
  w.uint(names.length);
  for (const name of names) {
    w.string(name);
    w.string(String(record[name]));
  }
}

function writeLog(w: ByteWriter, records: readonly MarkedRecord[]): void {
  w.uint(records.length);
  for (const record of records) {
    const call = record[NOTIFIED_CALL];
    w.float(record.time);
    if (call) {
      w.uint(Entry.Notified);
      w.uint(call[0]);
      w.uint(call[1]);
      continue;
    }
    w.uint(Entry.Record);
    w.uint(LEVEL_CODE.get(record.level) ?? 0);
    w.string(record.channel);
    w.string(record.message);
    w.string(contextJson(record.context));
  }
}

/**
 * A context as JSON (a few fields, made by the app), read as the profile builder reads a live one
 * (redact-data.ts): a cycle, a BigInt, a throwing getter or a deep nesting is marked, never thrown.
 */
function contextJson(context: Record<string, unknown>): string {
  if (context === null || typeof context !== 'object') return '{}';
  try {
    // Most contexts are plain data: JSON.stringify says what the walk below would, natively.
    return JSON.stringify(context) ?? '{}';
  } catch {
    return JSON.stringify(redactData(context, keep, ignore, never).value) ?? '{}';
  }
}

const keep = (text: string) => text;
const ignore = () => {};
const never = () => false;

/** The body only when the profile reads it (an HTML or JSON text within the fingerprint's cap); else its size and the preview's first bytes. */
function writeResponseBody(w: ByteWriter, response: ResponseFacts): void {
  const body = response.body;
  const type = response.header('content-type') ?? '';
  const textual = type.startsWith('text/html') || type.includes('json');
  if (typeof body === 'string') {
    if (textual && body.length <= FINGERPRINT_CAP) {
      w.uint(Body.Text);
      w.string(body);
    } else {
      w.uint(Body.Opaque);
      w.uint(Buffer.byteLength(body));
      w.bytes(previewHead(type, body));
    }
  } else if (Buffer.isBuffer(body)) {
    if (textual && body.length <= FINGERPRINT_CAP) {
      w.uint(Body.Bytes);
      w.bytes(body);
    } else {
      w.uint(Body.Opaque);
      w.uint(body.length);
      w.bytes(previewHead(type, body));
    }
  } else {
    w.uint(Body.None);
  }
}

/** The request as the worker reads it back: the profile builder's view of a live Request. */
export class RecordedRequest implements RequestFacts {
  readonly attributes: RouteAttributes;
  readonly extra = new Map<string, unknown>();
  readonly log: { records: LogRecord[]; errors: number; warnings: number };
  readonly events: { name: string; listeners: ListenerCall[] }[] = [];
  readonly phases: Phase[] = [];
  #query: QueryValues | null = null;

  constructor(
    readonly token: string | null, readonly startedAt: number, readonly duration: number,
    readonly method: string, readonly baseUrl: string, readonly path: string, readonly queryString: string, readonly clientIp: string,
    readonly serverAddress: ServerAddress | null,
    readonly headers: Record<string, string>, readonly bodySize: number, readonly body: Buffer,
    attributes: RouteAttributes,
  ) {
    this.attributes = attributes;
    this.log = { records: [], errors: 0, warnings: 0 };
  }

  get url(): string {
    return `${this.baseUrl}${this.path}${this.queryString ? `?${this.queryString}` : ''}`;
  }

  get query(): QueryValues {
    this.#query ??= parseQuery(this.queryString);
    return this.#query;
  }

  elapsed(): number {
    return this.duration;
  }
}

export class RecordedResponse implements ResponseFacts {
  constructor(readonly status: number, readonly statusText: string, readonly headers: Record<string, string>, readonly body: unknown) {}

  header(name: string): string | undefined {
    const lower = name.toLowerCase();
    for (const key in this.headers) if (key.toLowerCase() === lower) return this.headers[key];
    return undefined;
  }

  isHtml(): boolean {
    return (this.header('content-type') ?? '').startsWith('text/html');
  }
}

export interface DecodedRecord {
  routes: number;
  request: RecordedRequest;
  response: RecordedResponse;
}

/** Reads one request written by writeRequestRecord. */
export function readRequestRecord(r: ByteReader): DecodedRecord {
  const routes = r.uint();
  const token = r.optionalString();
  const startedAt = r.float();
  const duration = r.float();
  const method = r.string();
  const baseUrl = r.string();
  const path = r.string();
  const queryString = r.string();
  const clientIp = r.string();
  const serverHost = r.optionalString();
  const serverAddress = serverHost === null ? null : { address: serverHost, port: r.uint() };
  const headers = readPairs(r);
  const bodySize = r.uint();
  const body = r.bytes();
  const route = r.optionalString();
  const controller = r.optionalString();
  const params = readPairs(r);
  const request = new RecordedRequest(token, startedAt, duration, method, baseUrl, path, queryString, clientIp, serverAddress, headers, bodySize, body, { route, controller, params });
  const redirect = r.optionalString();
  if (redirect !== null) request.extra.set('redirect', redirect);
  const security = r.optionalString();
  if (security !== null) request.extra.set('security', JSON.parse(security));
  const exception = r.optionalString();
  if (exception !== null) request.extra.set(EXCEPTION_KEY, JSON.parse(exception));
  request.extra.set(DURATION_KEY, duration);

  const entries = readLogEntries(r);
  request.log.errors = r.uint();
  request.log.warnings = r.uint();
  for (let e = r.uint(); e > 0; e--) {
    const name = r.string();
    const listeners: ListenerCall[] = [];
    for (let c = r.uint(); c > 0; c--) listeners.push({ listener: r.string(), duration: r.float(), stoppedPropagation: r.bool() });
    request.events.push({ name, listeners });
  }
  for (let p = r.uint(); p > 0; p--) request.phases.push({ name: r.string(), start: r.float(), duration: r.float() });
  for (const entry of entries) request.log.records.push(entry.resolve(request.events));

  const status = r.uint();
  const statusText = r.string();
  const responseHeaders = readPairs(r);
  return { routes, request, response: new RecordedResponse(status, statusText, responseHeaders, readResponseBody(r)) };
}

function readPairs(r: ByteReader): Record<string, string> {
  const record: Record<string, string> = {};
  for (let n = r.uint(); n > 0; n--) {
    const name = r.string();
    record[name] = r.string();
  }
  return record;
}

/** Log entries, resolved once the events they point into are read. */
function readLogEntries(r: ByteReader): { resolve(events: readonly { name: string; listeners: ListenerCall[] }[]): LogRecord }[] {
  const entries = [];
  for (let n = r.uint(); n > 0; n--) {
    const time = r.float();
    if (r.uint() === Entry.Notified) {
      const at: [number, number] = [r.uint(), r.uint()];
      entries.push({
        resolve(events: readonly { name: string; listeners: ListenerCall[] }[]): LogRecord {
          const event = events[at[0]]?.name ?? '(unknown event)';
          const listener = events[at[0]]?.listeners[at[1]]?.listener ?? '(unknown listener)';
          const record: MarkedRecord = { time, level: 'DEBUG', channel: 'event', message: notifiedMessage(event, listener), context: { event, listener } };
          record[NOTIFIED_CALL] = at;
          return record;
        },
      });
      continue;
    }
    const record: LogRecord = { time, level: LEVELS[r.uint()] ?? 'DEBUG', channel: r.string(), message: r.string(), context: JSON.parse(r.string()) as Record<string, unknown> };
    entries.push({ resolve: () => record });
  }
  return entries;
}

function readResponseBody(r: ByteReader): unknown {
  switch (r.uint()) {
    case Body.Text: return r.string();
    case Body.Bytes: return r.bytes();
    case Body.Opaque: {
      const size = r.uint();
      const head = r.bytes();
      return new OpaqueBody(size, head.length ? head : null);
    }
    default: return null;
  }
}
