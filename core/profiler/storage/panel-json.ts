import type { Collectors, LogRecord, RouterData, TimeData } from '../profile.js';
import { hasKeys, isPlain, isPlainArray } from './json-parts.js';
import type { JsonSink } from './json-sink.js';

/**
 * The JSON of the panels every profile has, written field by field into a JsonSink: the text
 * JSON.stringify gives (the JSON of a value made once, serialiseOnce, copied in). Each returns
 * false when its panel is not exactly of the shape its collector makes, having written part of
 * it: the caller then goes back and serialises the panel generically (writePanel).
 */
export type PanelWriter<T> = (sink: JsonSink, panel: T) => boolean;

/** `panel` through `write`, or JSON.stringify's text when it is of another shape; false when JSON has nothing to write (undefined). */
export function writePanel<T>(sink: JsonSink, panel: T, write?: PanelWriter<T>): boolean {
  if (sink.known(panel)) return true;
  const start = sink.at;
  if (write !== undefined && write(sink, panel)) return true;
  sink.at = start;
  const json = JSON.stringify(panel);
  if (json === undefined) return false;
  sink.json(json);
  return true;
}

/** `value`'s JSON made once, else JSON.stringify's. */
function writeValue(sink: JsonSink, value: unknown): boolean {
  if (sink.known(value)) return true;
  const json = JSON.stringify(value);
  if (json === undefined) return false;
  sink.json(json);
  return true;
}

const TIME_KEYS = ['duration', 'phases', 'spans', 'memory'] as const;
const PHASE_KEYS = ['name', 'start', 'duration'] as const;

export function writeTime(sink: JsonSink, panel: TimeData): boolean {
  if (!isPlain(panel) || !hasKeys(panel, TIME_KEYS) || typeof panel.duration !== 'number' || !isPlainArray(panel.phases) || !isPlainArray(panel.spans)) return false;
  sink.ascii('{"duration":');
  sink.number(panel.duration);
  sink.ascii(',"phases":');
  if (!namedTimes(sink, panel.phases)) return false;
  sink.ascii(',"spans":');
  if (!namedTimes(sink, panel.spans)) return false;
  sink.ascii(',"memory":');
  if (panel.memory === null) sink.ascii('null');
  else if (!numbers(sink, panel.memory)) return false;
  sink.ascii('}');
  return true;
}

/** Phases and spans: { name, start, duration } each, duration a number or (a span still open) null. */
function namedTimes(sink: JsonSink, items: readonly unknown[]): boolean {
  sink.ascii('[');
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as { name: unknown; start: unknown; duration: unknown };
    if (!isPlain(item) || !hasKeys(item, PHASE_KEYS) || typeof item.name !== 'string' || typeof item.start !== 'number'
      || (typeof item.duration !== 'number' && item.duration !== null)) return false;
    sink.ascii(i === 0 ? '{"name":' : ',{"name":');
    sink.string(item.name);
    sink.ascii(',"start":');
    sink.number(item.start);
    sink.ascii(',"duration":');
    if (item.duration === null) sink.ascii('null');
    else sink.number(item.duration);
    sink.ascii('}');
  }
  sink.ascii(']');
  return true;
}

/** A plain object of numbers (the memory). */
function numbers(sink: JsonSink, value: unknown): boolean {
  if (!isPlain(value)) return false;
  let first = true;
  sink.ascii('{');
  for (const name in value) {
    const field = (value as Record<string, unknown>)[name];
    if (typeof field !== 'number' || !Object.prototype.hasOwnProperty.call(value, name)) return false;
    if (!first) sink.ascii(',');
    first = false;
    sink.string(name);
    sink.ascii(':');
    sink.number(field);
  }
  sink.ascii('}');
  return true;
}

const LOG_KEYS = ['records', 'errors', 'warnings'] as const;
const RECORD_KEYS = ['time', 'level', 'channel', 'message', 'context'] as const;

/**
 * The log panel in its stored form: records, or [event, listener, delay] references to the events
 * panel (stored-form.ts). A record's context made once for every request (the dispatcher's own
 * records, redact-event-record.ts) is copied in as its JSON.
 */
export function writeLog(sink: JsonSink, panel: Collectors['log']): boolean {
  if (!isPlain(panel) || !hasKeys(panel, LOG_KEYS) || !isPlainArray(panel.records) || typeof panel.errors !== 'number' || typeof panel.warnings !== 'number') return false;
  const { records } = panel;
  sink.ascii('{"records":[');
  for (let r = 0; r < records.length; r++) {
    if (r > 0) sink.ascii(',');
    const record = records[r] as unknown;
    if (!(isPlainArray(record) ? reference(sink, record) : logRecord(sink, record as LogRecord))) return false;
  }
  sink.ascii('],"errors":');
  sink.number(panel.errors);
  sink.ascii(',"warnings":');
  sink.number(panel.warnings);
  sink.ascii('}');
  return true;
}

function reference(sink: JsonSink, reference: readonly unknown[]): boolean {
  const [event, listener, delay] = reference;
  if (reference.length !== 3 || typeof event !== 'number' || typeof listener !== 'number' || typeof delay !== 'number') return false;
  sink.ascii('[');
  sink.number(event);
  sink.ascii(',');
  sink.number(listener);
  sink.ascii(',');
  sink.number(delay);
  sink.ascii(']');
  return true;
}

function logRecord(sink: JsonSink, record: LogRecord): boolean {
  if (!isPlain(record) || !hasKeys(record, RECORD_KEYS) || typeof record.time !== 'number' || typeof record.level !== 'string'
    || typeof record.channel !== 'string' || typeof record.message !== 'string') return false;
  sink.ascii('{"time":');
  sink.number(record.time);
  sink.ascii(',"level":');
  sink.string(record.level);
  sink.ascii(',"channel":');
  sink.string(record.channel);
  sink.ascii(',"message":');
  sink.string(record.message);
  sink.ascii(',"context":');
  if (!writeValue(sink, record.context)) return false;
  sink.ascii('}');
  return true;
}

const ROUTER_KEYS = ['route', 'params', 'redirect', 'explain', 'definition'] as const;

/** The routing panel of a matched route: its definition's JSON made once per route (router-collector.ts). */
export function writeRouter(sink: JsonSink, panel: RouterData): boolean {
  if (!isPlain(panel) || !hasKeys(panel, ROUTER_KEYS) || !stringOrNull(panel.route) || !stringOrNull(panel.redirect)) return false;
  sink.ascii('{"route":');
  sink.nullOrString(panel.route);
  sink.ascii(',"params":');
  if (!strings(sink, panel.params)) return false;
  sink.ascii(',"redirect":');
  sink.nullOrString(panel.redirect);
  sink.ascii(',"explain":');
  if (!writeValue(sink, panel.explain)) return false;
  sink.ascii(',"definition":');
  if (!writeValue(sink, panel.definition)) return false;
  sink.ascii('}');
  return true;
}

/** A plain object of strings (route parameters, cookies). */
function strings(sink: JsonSink, value: unknown): boolean {
  if (!isPlain(value)) return false;
  let first = true;
  sink.ascii('{');
  for (const name in value) {
    const field = (value as Record<string, unknown>)[name];
    if (typeof field !== 'string' || !Object.prototype.hasOwnProperty.call(value, name)) return false;
    if (!first) sink.ascii(',');
    first = false;
    sink.string(name);
    sink.ascii(':');
    sink.string(field);
  }
  sink.ascii('}');
  return true;
}

const SECURITY_KEYS = ['decision', 'rule', 'message'] as const;

export function writeSecurity(sink: JsonSink, panel: Collectors['security']): boolean {
  if (!isPlain(panel) || !hasKeys(panel, SECURITY_KEYS) || typeof panel.decision !== 'string' || !stringOrNull(panel.rule) || !stringOrNull(panel.message)) return false;
  sink.ascii('{"decision":');
  sink.string(panel.decision);
  sink.ascii(',"rule":');
  sink.nullOrString(panel.rule);
  sink.ascii(',"message":');
  sink.nullOrString(panel.message);
  sink.ascii('}');
  return true;
}

const HTTP_CLIENT_KEYS = ['calls', 'totalTime', 'errors'] as const;

/** The HTTP client panel when no call was made (most requests). */
export function writeHttpClient(sink: JsonSink, panel: Collectors['http_client']): boolean {
  if (!isPlain(panel) || !hasKeys(panel, HTTP_CLIENT_KEYS) || !isPlainArray(panel.calls) || panel.calls.length > 0
    || typeof panel.totalTime !== 'number' || typeof panel.errors !== 'number') return false;
  sink.ascii('{"calls":[],"totalTime":');
  sink.number(panel.totalTime);
  sink.ascii(',"errors":');
  sink.number(panel.errors);
  sink.ascii('}');
  return true;
}

const DUMP_KEYS = ['dumps'] as const;

/** The dump panel when nothing was dumped (most requests). */
export function writeDump(sink: JsonSink, panel: Collectors['dump']): boolean {
  if (!isPlain(panel) || !hasKeys(panel, DUMP_KEYS) || !isPlainArray(panel.dumps) || panel.dumps.length > 0) return false;
  sink.ascii('{"dumps":[]}');
  return true;
}

const REQUEST_KEYS = ['method', 'url', 'server', 'path', 'route', 'routeParams', 'controller', 'query', 'headers', 'cookies', 'body', 'response', 'redacted'] as const;
const RESPONSE_KEYS = ['status', 'statusText', 'headers', 'size', 'contentType', 'title', 'structure', 'body'] as const;
const SERVER_KEYS = ['address', 'port'] as const;
const BODY_KEYS = ['size', 'contentType', 'truncated', 'text'] as const;
const STRUCTURE_KEYS = ['kind', 'nodes', 'hash'] as const;

/** The request panel as the request collector makes it (request-collector.ts). */
export function writeRequest(sink: JsonSink, panel: Collectors['request']): boolean {
  if (!isPlain(panel) || !hasKeys(panel, REQUEST_KEYS) || typeof panel.method !== 'string' || typeof panel.url !== 'string' || typeof panel.path !== 'string'
    || !stringOrNull(panel.route) || !stringOrNull(panel.controller) || !isPlainArray(panel.redacted)) return false;
  sink.ascii('{"method":');
  sink.string(panel.method);
  sink.ascii(',"url":');
  sink.string(panel.url);
  sink.ascii(',"server":');
  if (panel.server === null) sink.ascii('null');
  else if (!server(sink, panel.server)) return false;
  sink.ascii(',"path":');
  sink.string(panel.path);
  sink.ascii(',"route":');
  sink.nullOrString(panel.route);
  sink.ascii(',"routeParams":');
  if (!strings(sink, panel.routeParams)) return false;
  sink.ascii(',"controller":');
  sink.nullOrString(panel.controller);
  sink.ascii(',"query":');
  if (!headers(sink, panel.query)) return false;
  sink.ascii(',"headers":');
  if (!headers(sink, panel.headers)) return false;
  sink.ascii(',"cookies":');
  if (!strings(sink, panel.cookies)) return false;
  sink.ascii(',"body":');
  if (!body(sink, panel.body)) return false;
  sink.ascii(',"response":');
  if (!response(sink, panel.response)) return false;
  sink.ascii(',"redacted":');
  if (!stringArray(sink, panel.redacted)) return false;
  sink.ascii('}');
  return true;
}

function server(sink: JsonSink, value: unknown): boolean {
  const { address, port } = value as { address: unknown; port: unknown };
  if (!isPlain(value) || !hasKeys(value, SERVER_KEYS) || typeof address !== 'string' || typeof port !== 'number') return false;
  sink.ascii('{"address":');
  sink.string(address);
  sink.ascii(',"port":');
  sink.number(port);
  sink.ascii('}');
  return true;
}

function response(sink: JsonSink, value: Collectors['request']['response']): boolean {
  if (!isPlain(value) || !hasKeys(value, RESPONSE_KEYS) || typeof value.status !== 'number' || typeof value.statusText !== 'string'
    || (value.size !== null && typeof value.size !== 'number') || !stringOrNull(value.contentType) || !stringOrNull(value.title)) return false;
  sink.ascii('{"status":');
  sink.number(value.status);
  sink.ascii(',"statusText":');
  sink.string(value.statusText);
  sink.ascii(',"headers":');
  if (!headers(sink, value.headers)) return false;
  sink.ascii(',"size":');
  if (value.size === null) sink.ascii('null');
  else sink.number(value.size);
  sink.ascii(',"contentType":');
  sink.nullOrString(value.contentType);
  sink.ascii(',"title":');
  sink.nullOrString(value.title);
  sink.ascii(',"structure":');
  if (!structure(sink, value.structure)) return false;
  sink.ascii(',"body":');
  if (!body(sink, value.body)) return false;
  sink.ascii('}');
  return true;
}

function body(sink: JsonSink, value: unknown): boolean {
  if (value === null) {
    sink.ascii('null');
    return true;
  }
  const { size, contentType, truncated, text } = value as Record<string, unknown>;
  if (!isPlain(value) || !hasKeys(value, BODY_KEYS) || typeof size !== 'number' || !stringOrNull(contentType) || typeof truncated !== 'boolean' || typeof text !== 'string') return false;
  sink.ascii('{"size":');
  sink.number(size);
  sink.ascii(',"contentType":');
  sink.nullOrString(contentType);
  sink.ascii(truncated ? ',"truncated":true,"text":' : ',"truncated":false,"text":');
  sink.string(text);
  sink.ascii('}');
  return true;
}

function structure(sink: JsonSink, value: unknown): boolean {
  if (value === null) {
    sink.ascii('null');
    return true;
  }
  const { kind, nodes, hash } = value as Record<string, unknown>;
  if (!isPlain(value) || !hasKeys(value, STRUCTURE_KEYS) || typeof kind !== 'string' || typeof nodes !== 'number' || typeof hash !== 'string') return false;
  sink.ascii('{"kind":');
  sink.string(kind);
  sink.ascii(',"nodes":');
  sink.number(nodes);
  sink.ascii(',"hash":');
  sink.string(hash);
  sink.ascii('}');
  return true;
}

/** Headers and query values: a plain object of strings and arrays of strings. */
function headers(sink: JsonSink, value: unknown): boolean {
  if (!isPlain(value)) return false;
  let first = true;
  sink.ascii('{');
  for (const name in value) {
    const field = (value as Record<string, unknown>)[name];
    if (!Object.prototype.hasOwnProperty.call(value, name)) return false;
    if (!first) sink.ascii(',');
    first = false;
    sink.string(name);
    sink.ascii(':');
    if (typeof field === 'string') sink.string(field);
    else if (!isPlainArray(field) || !stringArray(sink, field)) return false;
  }
  sink.ascii('}');
  return true;
}

function stringArray(sink: JsonSink, values: readonly unknown[]): boolean {
  sink.ascii('[');
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== 'string') return false;
    if (i > 0) sink.ascii(',');
    sink.string(value);
  }
  sink.ascii(']');
  return true;
}

function stringOrNull(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}
