import {
  parseQuery,
  type QueryValues,
  type Request,
  type RouteAttributes,
  type ServerAddress,
} from '../../http/request.js';
import { notifiedMessage } from '../../kernel/event-dispatcher.js';
import { matchedRouteContext, MatchedRouteRecord } from '../../kernel/router-listener.js';
import {
  CALL_STRIDE,
  NotifiedRecord,
  PHASE_STRIDE,
  propagationMessage,
  PropagationRecord,
  RecordingTrace,
  traceNameId,
} from '../../kernel/request-trace.js';
import type { ExceptionData } from '../../kernel/exception-data.js';
import type { SecurityData } from '../../kernel/trace-data.js';
import type { LogLevel, LogRecord } from '../../log/log-record.js';
import { interpolate } from '../../log/logger.js';
import { FINGERPRINT_CAP } from '../body-fingerprint.js';
import { BODY_CAP, previewHead } from '../request-collector.js';
import { redactData } from '../../redaction/index.js';
import { shareContext } from '../redact-event-record.js';
import { DescribedBody, OpaqueBody, type RequestFacts, type ResponseFacts } from '../request-facts.js';
import { traceFacts, type TraceFacts } from '../trace-facts.js';
import type { ByteReader, ByteWriter } from './byte-writer.js';
import { exceptionJson } from './exception-json.js';
import { serialisedJson, serialiseOnce } from '../../debug/request-recording.js';
import { OutgoingCall } from '../../debug/outgoing-call.js';
import { readOutgoingCall, writeOutgoingCall } from './outgoing-call-record.js';
import { DATABASE_COLLECTOR, type QueryEntry, QueryRecord } from '../../debug/database-query.js';
import { readQueryRecord, writeQueryRecord } from './query-record.js';
import { isTokenHeader, skipVaryingParts, VaryingParts, writeVaryingParts } from './varying-parts.js';
import { MEMORY_COLLECTOR } from '../collectors/time-collector.js';
import { HTTP_CLIENT_COLLECTOR } from '../../debug/http-client-capture.js';

/**
 * One answered request as the profiler worker receives it: the request and response heads and
 * the request's trace in the kernel's own words (ids, clock readings, references), written field
 * by field (ByteWriter), never as a profile. The worker reads it back into a RecordedRequest, the
 * trace's facts and a RecordedResponse, which the profile builder reads as it reads live ones.
 * A record first carries the trace names (traceNames()) registered since the record before; a value
 * recorded by every request (serialiseOnce(), the configuration) is one of them, its JSON sent once.
 */

const LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'CRITICAL', 'ALERT', 'EMERGENCY'];
const LEVEL_CODE = new Map(LEVELS.map((level, i) => [level, i]));
const DECISIONS: readonly (SecurityData['decision'] | null)[] = [null, 'none', 'allowed', 'denied'];

const enum Body {
  None,
  Text,
  Bytes,
  Opaque,
  Described,
}
const enum Entry {
  Record,
  Notified,
  MatchedRoute,
  Stopped,
  NotCalled,
}

/** Where the record being written holds what changes from one request to the next (varying-parts.ts). */
const varying = new VaryingParts();

/**
 * Writes one request; `routes` names the route table the worker explains 404s with; `names` are
 * the trace names, of which the reader already has the first `known`. The record ends with where it
 * holds its token and clock readings (varying-parts.ts), which readRecordBody does not read.
 */
export function writeRequestRecord(
  w: ByteWriter,
  request: Request,
  trace: RecordingTrace,
  response: ResponseFacts,
  routes: number,
  names: readonly string[],
  known: number,
): void {
  if (trace.entries !== null) nameKnownValues(trace.entries);
  w.uint(known);
  w.uint(names.length - known);
  for (let id = known; id < names.length; id++) w.string(names[id]);
  // the body begins at a multiple of 8: the same request's bodies are then alike to the byte (record-shapes.ts)
  w.padTo8();
  varying.begin(w.length);

  writeRequestHead(w, routes, trace.token, trace.origin, trace.duration ?? request.elapsed(), request, varying);
  w.optionalString(trace.match?.type === 'redirect' ? trace.match.path : null);
  writeSecurity(w, trace.security, trace.security?.message ?? null);
  w.optionalString(trace.exception === null ? null : exceptionJson(trace.exception));

  // The trace's rows as they are (ids and clock readings, request-trace.ts's strides): one copy each.
  w.floats(trace.events);
  w.floats(trace.calls);
  varying.callRows(w.length, trace.calls.length);
  w.floats(trace.phases);
  varying.phaseRows(w.length, trace.phases.length);
  writeLog(w, request, request.log.records);
  w.uint(request.log.errors);
  w.uint(request.log.warnings);
  writeEntries(w, trace.entries, varying);

  w.uint(response.status);
  w.string(response.statusText);
  writePairs(w, response.headers, trace.token);
  writeResponseBody(w, response);
  writeVaryingParts(w, varying);
}

/** What a record's head holds of a request: a live Request, or one read back with its texts redacted. */
type RequestHead = Pick<
  RequestFacts,
  | 'startedAt'
  | 'method'
  | 'baseUrl'
  | 'path'
  | 'queryString'
  | 'clientIp'
  | 'serverAddress'
  | 'headers'
  | 'bodySize'
  | 'body'
  | 'attributes'
>;

/** A record's head: which route table, the token, the clock, and the request as far as its route. */
function writeRequestHead(
  w: ByteWriter,
  routes: number,
  token: string | null,
  origin: number,
  duration: number,
  request: RequestHead,
  parts: VaryingParts | null = null,
): void {
  w.uint(routes);
  w.optionalString(token);
  if (parts !== null && token !== null && isAscii(token)) parts.token(w.length, token.length);
  parts?.float(w.length);
  w.float(request.startedAt);
  parts?.float(w.length);
  w.float(origin);
  parts?.float(w.length);
  w.float(duration);
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
}

function writeSecurity(w: ByteWriter, security: SecurityData | null, message: string | null): void {
  w.uint(security === null ? 0 : DECISIONS.indexOf(security.decision));
  if (security !== null) {
    w.optionalString(security.rule);
    w.optionalString(message);
  }
}

/** Gives the values sent by reference (below) their names before the record's new names are written. */
function nameKnownValues(entries: ReadonlyMap<string, readonly unknown[]>): void {
  for (const values of entries.values()) {
    for (const value of values) {
      const once = serialisedJson(value);
      if (once !== undefined) traceNameId(once);
    }
  }
}

/**
 * The app's entries, when there are any, each value as writeEntryValue writes it; the memory a request
 * left is noted in `parts`, when given, as what changes from one request to the next.
 */
export function writeEntries(
  w: ByteWriter,
  entries: ReadonlyMap<string, readonly unknown[]> | null,
  parts: VaryingParts | null = null,
): void {
  w.uint(entries?.size ?? 0);
  if (!entries) return;
  for (const [collector, values] of entries) {
    w.string(collector);
    w.uint(values.length);
    const list: ListWritten = {
      lastQuery: null,
      varying: collector === MEMORY_COLLECTOR ? parts : null,
      readings: collector === HTTP_CLIENT_COLLECTOR || collector === DATABASE_COLLECTOR ? parts : null,
    };
    for (const value of values) writeEntryValue(w, value, list);
  }
}

export function readEntries(
  r: ByteReader,
  names: readonly string[],
  used: NameUse | null,
): Map<string, unknown[]> | null {
  const count = r.uint();
  if (count === 0) return null;
  const entries = new Map<string, unknown[]>();
  for (let c = 0; c < count; c++) {
    const collector = r.string();
    const values: unknown[] = [];
    const list: ListRead = { lastQuery: null };
    for (let n = r.uint(); n > 0; n--) values.push(readEntryValue(r, names, used, list));
    entries.set(collector, values);
  }
  return entries;
}

const enum Value {
  Json,
  Numbers,
  OutgoingCall,
  Known,
  Query,
}

/** What the values of one collector's list, written or read so far, tell the next: a query may refer to the one before it. */
interface ListWritten {
  lastQuery: QueryRecord | null;
  /** where a plain object of numbers is noted as changing from one request to the next (the memory a request left) */
  varying: VaryingParts | null;
  /** where an outgoing call's or a query's clock readings are noted (the same call again differs by them alone) */
  readings: VaryingParts | null;
}
interface ListRead {
  lastQuery: QueryEntry | null;
}

/**
 * An entry's value: an outgoing HTTP call or a database query field by field (outgoing-call-record.ts,
 * query-record.ts); a plain object of finite numbers (the memory a request leaves, a counter) as its
 * names and numbers, which JSON would give back the same; anything else as JSON.
 */
function writeEntryValue(w: ByteWriter, value: unknown, list: ListWritten): void {
  const once = serialisedJson(value);
  if (once !== undefined) {
    // The same value every request (the configuration): its JSON travels once, as a trace name, and is referred to by id.
    w.uint(Value.Known);
    w.uint(traceNameId(once));
    return;
  }
  if (value instanceof OutgoingCall) {
    w.uint(Value.OutgoingCall);
    writeOutgoingCall(w, value, list.readings);
    return;
  }
  if (value instanceof QueryRecord) {
    w.uint(Value.Query);
    writeQueryRecord(w, value, list.lastQuery, list.readings);
    list.lastQuery = value;
    return;
  }
  if (isNumberRecord(value)) {
    w.uint(Value.Numbers);
    const at = w.reserve32();
    let count = 0;
    for (const name in value) {
      w.string(name);
      list.varying?.float(w.length);
      w.float(value[name]);
      count++;
    }
    w.patch32(at, count);
    return;
  }
  w.uint(Value.Json);
  w.string(valueJson(value));
}

function readEntryValue(r: ByteReader, names: readonly string[], used: NameUse | null, list: ListRead): unknown {
  const kind = r.uint();
  if (kind === Value.Json) return JSON.parse(r.string());
  if (kind === Value.Known) {
    const id = r.uint();
    used?.add(id);
    return knownValue(names, id);
  }
  if (kind === Value.OutgoingCall) return readOutgoingCall(r);
  if (kind === Value.Query) return (list.lastQuery = readQueryRecord(r, list.lastQuery));
  const record: Record<string, number> = {};
  for (let n = r.fixed32(); n > 0; n--) {
    const name = r.string();
    record[name] = r.float();
  }
  return record;
}

/** A value sent once as a trace name, parsed once per reader: every record gets the same object, itself marked serialiseOnce(). */
const knownValues = new WeakMap<readonly string[], Map<number, unknown>>();

/** The trace name id of each value sent once, as read. */
const knownIds = new WeakMap<object, number>();

function knownValue(names: readonly string[], id: number): unknown {
  let values = knownValues.get(names);
  if (values === undefined) knownValues.set(names, (values = new Map()));
  let value = values.get(id);
  if (value === undefined) {
    value = JSON.parse(names[id] ?? 'null');
    if (typeof value === 'object' && value !== null) {
      serialiseOnce(value);
      knownIds.set(value, id);
    }
    values.set(id, value);
  }
  return value;
}

/** The trace name id of a value a record sent once (the configuration), as read back; undefined for any other. */
export function sentOnceId(value: unknown): number | undefined {
  return typeof value === 'object' && value !== null ? knownIds.get(value) : undefined;
}

function isNumberRecord(value: unknown): value is Record<string, number> {
  if (
    typeof value !== 'object' ||
    value === null ||
    Object.getPrototypeOf(value) !== Object.prototype ||
    serialisedJson(value) !== undefined
  )
    return false;
  for (const name in value) {
    const field = (value as Record<string, unknown>)[name];
    if (typeof field !== 'number' || !Number.isFinite(field)) return false;
  }
  return true;
}

/**
 * Name and value pairs, walked once (no array of the names is made): their count goes first, patched in
 * after. With the request's `token`, the profiler's own headers that end with it (X-Debug-Token and its
 * link) are noted as holding it (varying-parts.ts).
 */
function writePairs(w: ByteWriter, record: Record<string, string>, token: string | null = null): void {
  const at = w.reserve32();
  let count = 0;
  const noted = token !== null && isAscii(token);
  for (const name in record) {
    const value = typeof record[name] === 'string' ? record[name] : String(record[name]);
    w.string(name);
    w.string(value);
    if (noted && isTokenHeader(name) && value.endsWith(token)) varying.token(w.length, token.length);
    count++;
  }
  w.patch32(at, count);
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function writeLog(w: ByteWriter, request: Request, records: readonly LogRecord[]): void {
  w.uint(records.length);
  for (const record of records) {
    varying.float(w.length);
    w.float(record.time);
    if (record instanceof NotifiedRecord) {
      w.uint(Entry.Notified);
      w.uint(record.call);
      continue;
    }
    if (record instanceof PropagationRecord) {
      w.uint(record.stopped ? Entry.Stopped : Entry.NotCalled);
      w.uint(record.eventId);
      w.uint(record.listenerId);
      continue;
    }
    if (record instanceof MatchedRouteRecord && matchesAttributes(record, request)) {
      w.uint(Entry.MatchedRoute);
      continue;
    }
    w.uint(Entry.Record);
    w.uint(LEVEL_CODE.get(record.level) ?? 0);
    w.string(record.channel);
    w.string(record.message);
    w.string(contextJson(record.context));
  }
}

/** Whether the worker can make the record again from the request's route attributes, as it reads them back. */
function matchesAttributes(record: MatchedRouteRecord, request: Request): boolean {
  const { attributes } = request;
  return (
    record.request === request &&
    record.match.route === attributes.route &&
    record.match.controller === attributes.controller &&
    record.match.params === attributes.params
  );
}

/**
 * A context as JSON (a few fields, made by the app), read as the profile builder reads a live one
 * (redact-data.ts): a cycle, a BigInt, a throwing getter or a deep nesting is marked, never thrown.
 */
function contextJson(context: Record<string, unknown>): string {
  if (context === null || typeof context !== 'object') return '{}';
  return valueJson(context, '{}');
}

/** A value the app gave as JSON: a cycle, a BigInt or a throwing getter is marked (redact-data.ts), never thrown. */
function valueJson(value: unknown, otherwise = 'null'): string {
  const once = serialisedJson(value);
  if (once !== undefined) return once;
  try {
    // Most values are plain data: JSON.stringify says what the walk below would, natively.
    return JSON.stringify(value) ?? otherwise;
  } catch {
    return JSON.stringify(redactData(value, keep, ignore, never).value) ?? otherwise;
  }
}

const keep = (text: string) => text;
const ignore = () => {};
const never = () => false;

/** A response body as what the request panel shows of it (stored-record.ts), in place of what writeResponseBody wrote: a DescribedBody's JSON. */
export function writeDescribedBody(w: ByteWriter, json: string): void {
  w.uint(Body.Described);
  w.string(json);
}

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
  #query: QueryValues | null = null;
  #url: string | null = null;

  constructor(
    readonly startedAt: number,
    readonly method: string,
    readonly baseUrl: string,
    readonly path: string,
    readonly queryString: string,
    readonly clientIp: string,
    readonly serverAddress: ServerAddress | null,
    readonly headers: Record<string, string>,
    readonly bodySize: number,
    readonly body: Buffer,
    attributes: RouteAttributes,
  ) {
    this.attributes = attributes;
  }

  /** made once: the log's "Matched route" record and its memo read it */
  get url(): string {
    this.#url ??= `${this.baseUrl}${this.path}${this.queryString ? `?${this.queryString}` : ''}`;
    return this.#url;
  }

  get query(): QueryValues {
    this.#query ??= parseQuery(this.queryString);
    return this.#query;
  }
}

export class RecordedResponse implements ResponseFacts {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: Record<string, string>,
    readonly body: unknown,
  ) {}

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
  /** where the response body begins, the record's last field (read by ByteReader's offset) */
  responseBodyOffset: number;
  request: RecordedRequest;
  trace: TraceFacts;
  response: RecordedResponse;
  /** the trace as the record holds it: its clock origin and rows, its match, decision and exception */
  rows: RecordingTrace;
}

const ignoreLog = () => {};

/**
 * Reads one request written by writeRequestRecord, whole (its names, its body and what follows it);
 * `names` are the trace names read so far, which it completes.
 */
export function readRequestRecord(r: ByteReader, names: string[]): DecodedRecord {
  readRecordNames(r, names);
  const decoded = readRecordBody(r, names, null);
  skipVaryingParts(r);
  return decoded;
}

/** The trace names a record carries first (those registered since the record before), added to `names`. */
export function readRecordNames(r: ByteReader, names: string[]): void {
  const known = r.uint();
  for (let n = r.uint(), id = known; n > 0; n--, id++) names[id] = r.string();
  r.skipTo8();
}

/**
 * The rest of a record, after its names: `names` resolves its ids. `used`, when given, receives
 * every name id the record refers to (what a stored record must carry to be read alone: stored-record.ts).
 */
export function readRecordBody(r: ByteReader, names: readonly string[], used: NameUse | null): DecodedRecord {
  const routes = r.uint();
  const token = r.optionalString();
  const startedAt = r.float();
  const trace = new RecordingTrace(r.float(), ignoreLog);
  trace.token = token;
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
  const request = new RecordedRequest(
    startedAt,
    method,
    baseUrl,
    path,
    queryString,
    clientIp,
    serverAddress,
    headers,
    bodySize,
    body,
    { route, controller, params },
  );
  const redirect = r.optionalString();
  if (redirect !== null)
    trace.matched({ type: 'redirect', route: route ?? '', controller: controller ?? '', path: redirect, params });
  const decision = DECISIONS[r.uint()] ?? null;
  if (decision !== null) trace.decided(decision, r.optionalString(), r.optionalString());
  const exception = r.optionalString();
  if (exception !== null) trace.threw(recordedException(exception));

  r.floats(trace.events);
  r.floats(trace.calls);
  r.floats(trace.phases);
  if (used !== null) usedByRows(trace, used);
  const records = readLog(r, trace, names, request, used);
  const log = { records, errors: r.uint(), warnings: r.uint() };
  trace.entries = readEntries(r, names, used);

  const status = r.uint();
  const statusText = r.string();
  const responseHeaders = readPairs(r);
  const responseBodyOffset = r.offset;
  const response = new RecordedResponse(status, statusText, responseHeaders, readResponseBody(r));
  return { routes, responseBodyOffset, request, trace: traceFacts(trace, log, duration, names), response, rows: trace };
}

/**
 * A record's body written again from what was read of it, with the texts the redaction policy
 * changed given in `redacted` (stored-record.ts writes a request's redacted record so): every log
 * record is written whole, the app's entries are left out (their panels travel beside the record),
 * and the response body is left for the caller to write (writeDescribedBody).
 */
export interface RedactedTexts {
  path: string;
  queryString: string;
  headers: Record<string, string>;
  /** what the request panel shows of the body (within BODY_CAP), or null when there was none */
  body: string | null;
  params: Record<string, string>;
  securityMessage: string | null;
  exceptionJson: string | null;
  log: readonly LogRecord[];
  responseHeaders: Record<string, string>;
}

export function writeRedactedBody(w: ByteWriter, decoded: DecodedRecord, redacted: RedactedTexts): void {
  const { request, rows, trace, response } = decoded;
  writeRequestHead(w, decoded.routes, trace.token, rows.origin, trace.duration, {
    startedAt: request.startedAt,
    method: request.method,
    baseUrl: request.baseUrl,
    path: redacted.path,
    queryString: redacted.queryString,
    clientIp: request.clientIp,
    serverAddress: request.serverAddress,
    headers: redacted.headers,
    bodySize: request.bodySize,
    body: redacted.body === null ? Buffer.alloc(0) : Buffer.from(redacted.body),
    attributes: { ...request.attributes, params: redacted.params },
  });
  w.optionalString(trace.redirect);
  writeSecurity(w, rows.security, redacted.securityMessage);
  w.optionalString(redacted.exceptionJson);
  w.floats(rows.events);
  w.floats(rows.calls);
  w.floats(rows.phases);
  w.uint(redacted.log.length);
  for (const record of redacted.log) {
    w.float(record.time);
    w.uint(Entry.Record);
    w.uint(LEVEL_CODE.get(record.level) ?? 0);
    w.string(record.channel);
    w.string(record.message);
    w.string(contextJson(record.context));
  }
  w.uint(trace.log.errors);
  w.uint(trace.log.warnings);
  writeEntries(w, null);
  w.uint(response.status);
  w.string(response.statusText);
  writePairs(w, redacted.responseHeaders);
}

/** The trace name ids a record refers to, each once, in the order first met. */
export class NameUse {
  readonly ids: number[] = [];
  #marks = new Uint8Array(256);

  add(id: number): void {
    if (!Number.isInteger(id) || id < 0) return;
    if (id >= this.#marks.length) {
      const grown = new Uint8Array(Math.max(this.#marks.length * 2, id + 1));
      grown.set(this.#marks);
      this.#marks = grown;
    }
    if (this.#marks[id] === 1) return;
    this.#marks[id] = 1;
    this.ids.push(id);
  }

  clear(): void {
    for (const id of this.ids) this.#marks[id] = 0;
    this.ids.length = 0;
  }
}

/** The name ids the trace's rows hold: every event's, each call's listener, each phase's. */
export function usedByRows(trace: RecordingTrace, used: NameUse): void {
  for (const id of trace.events) used.add(id);
  for (let at = 1; at < trace.calls.length; at += CALL_STRIDE) used.add(trace.calls[at]);
  for (let at = 0; at < trace.phases.length; at += PHASE_STRIDE) used.add(trace.phases[at]);
}

/**
 * The exceptions last read, with their JSON text: the same exception recorded again (a 404's) is
 * parsed once and every record gets the same object, whose panel is then built once
 * (exception-collector.ts). Found by comparing texts (a length first), which costs less than hashing
 * a fresh text of some kilobytes to look it up.
 */
const exceptions: { json: string; exception: ExceptionData }[] = [];
const MAX_EXCEPTIONS = 8;

function recordedException(json: string): ExceptionData {
  for (const known of exceptions) if (known.json === json) return known.exception;
  const exception = JSON.parse(json) as ExceptionData;
  exceptions.unshift({ json, exception });
  if (exceptions.length > MAX_EXCEPTIONS) exceptions.pop();
  return exception;
}

function readPairs(r: ByteReader): Record<string, string> {
  const record: Record<string, string> = {};
  for (let n = r.fixed32(); n > 0; n--) {
    const name = r.string();
    record[name] = r.string();
  }
  return record;
}

/**
 * The log; a `Notified event` record is made again from its call's event and listener names, a
 * propagation one from its event and listener names, a "Matched route" one from the request's
 * route attributes.
 */
function readLog(
  r: ByteReader,
  trace: RecordingTrace,
  names: readonly string[],
  request: RecordedRequest,
  used: NameUse | null,
): LogRecord[] {
  const records: LogRecord[] = [];
  for (let n = r.uint(); n > 0; n--) {
    const time = r.float();
    const entry = r.uint();
    if (entry === Entry.Stopped || entry === Entry.NotCalled) {
      const eventId = r.uint();
      const listenerId = r.uint();
      used?.add(eventId);
      used?.add(listenerId);
      const event = names[eventId] ?? '(unknown event)';
      const listener = names[listenerId] ?? '(unknown listener)';
      records.push({
        time,
        level: 'DEBUG',
        channel: 'event',
        message: propagationMessage(entry === Entry.Stopped, event, listener),
        context: { event, listener },
      });
      continue;
    }
    if (entry === Entry.MatchedRoute) {
      records.push(matchedRouteRecord(time, request));
      continue;
    }
    if (entry === Entry.Notified) {
      const call = r.uint();
      const at = call * CALL_STRIDE;
      const event = names[trace.events[trace.calls[at]]] ?? '(unknown event)';
      const listener = names[trace.calls[at + 1]] ?? '(unknown listener)';
      records.push(new NotifiedRecord(time, notifiedMessage(event, listener), { event, listener }, call));
      continue;
    }
    records.push({
      time,
      level: LEVELS[r.uint()] ?? 'DEBUG',
      channel: r.string(),
      message: r.string(),
      context: JSON.parse(r.string()) as Record<string, unknown>,
    });
  }
  return records;
}

/**
 * The facts of the "Matched route" records last made, by URL: the same request asked again gets
 * the same context object (shareContext: never changed, its stored copy made once).
 */
const matchedRoutes = new Map<
  string,
  {
    method: string;
    route: string | null;
    controller: string | null;
    params: Record<string, string>;
    message: string;
    context: Record<string, unknown>;
  }
>();
const MAX_MATCHED_ROUTES = 256;

function matchedRouteRecord(time: number, request: RecordedRequest): LogRecord {
  const { route, controller, params } = request.attributes;
  const url = request.url;
  const known = matchedRoutes.get(url);
  if (
    known !== undefined &&
    known.method === request.method &&
    known.route === route &&
    known.controller === controller &&
    sameStrings(known.params, params)
  ) {
    return { time, level: 'INFO', channel: 'request', message: known.message, context: known.context };
  }
  const context = shareContext(matchedRouteContext(route ?? '', controller ?? '', params, url, request.method));
  const message = `Matched route "${route ?? ''}".`;
  const record: LogRecord = {
    time,
    level: 'INFO',
    channel: 'request',
    message: message.includes('{') ? interpolate(message, context) : message,
    context,
  };
  if (matchedRoutes.size >= MAX_MATCHED_ROUTES) matchedRoutes.clear();
  matchedRoutes.set(url, { method: request.method, route, controller, params, message: record.message, context });
  return record;
}

function sameStrings(a: Record<string, string>, b: Record<string, string>): boolean {
  let count = 0;
  for (const name in a) {
    if (a[name] !== b[name] || !Object.prototype.hasOwnProperty.call(b, name)) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

/** A response body written by writeResponseBody as text (a string the app answered), read at `r`; null for any other body. */
export function readResponseText(r: ByteReader): string | null {
  return r.uint() === Body.Text ? r.string() : null;
}

function readResponseBody(r: ByteReader): unknown {
  switch (r.uint()) {
    case Body.Text:
      return r.string();
    case Body.Bytes:
      return r.bytes();
    case Body.Opaque: {
      const size = r.uint();
      const head = r.bytes();
      return new OpaqueBody(size, head.length ? head : null);
    }
    case Body.Described: {
      const { size, title, structure, preview } = JSON.parse(r.string()) as DescribedBody;
      return new DescribedBody(size, title, structure, preview);
    }
    default:
      return null;
  }
}
