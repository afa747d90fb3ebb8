import { serialisedJson } from '../../debug/request-recording.js';
import type { Collectors, LogRecord, RouterData, TimeData } from '../profile.js';
import { hasKeys, isPlain, isPlainArray, jsonNumber, quote } from './json-parts.js';

/**
 * The JSON text of the panels every profile has, written field by field: the text JSON.stringify
 * gives, for less (names quoted once, numbers put together from whole numbers, the JSON of a value
 * made once, serialiseOnce, spliced in). Each returns undefined when its panel is not exactly of the
 * shape its collector makes, and the caller then serialises it generically.
 */

const TIME_KEYS = ['duration', 'phases', 'spans', 'memory'] as const;
const PHASE_KEYS = ['name', 'start', 'duration'] as const;

export function timeJson(panel: TimeData): string | undefined {
  if (
    !isPlain(panel) ||
    !hasKeys(panel, TIME_KEYS) ||
    typeof panel.duration !== 'number' ||
    !isPlainArray(panel.phases) ||
    !isPlainArray(panel.spans)
  )
    return undefined;
  const phases = namedTimes(panel.phases);
  const spans = namedTimes(panel.spans);
  const memory = panel.memory === null ? 'null' : numbersJson(panel.memory);
  if (phases === undefined || spans === undefined || memory === undefined) return undefined;
  return `{"duration":${jsonNumber(panel.duration)},"phases":${phases},"spans":${spans},"memory":${memory}}`;
}

/** Phases and spans: { name, start, duration } each, duration a number or (a span still open) null. */
function namedTimes(items: readonly unknown[]): string | undefined {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as { name: unknown; start: unknown; duration: unknown };
    if (
      !isPlain(item) ||
      !hasKeys(item, PHASE_KEYS) ||
      typeof item.name !== 'string' ||
      typeof item.start !== 'number' ||
      (typeof item.duration !== 'number' && item.duration !== null)
    )
      return undefined;
    text += `${i === 0 ? '' : ','}{"name":${quote(item.name)},"start":${jsonNumber(item.start)},"duration":${item.duration === null ? 'null' : jsonNumber(item.duration)}}`;
  }
  return `${text}]`;
}

/** A plain object whose own values `field` each writes as JSON (undefined: not one it takes), else undefined. */
function objectJson(value: unknown, field: (item: unknown) => string | undefined): string | undefined {
  if (!isPlain(value)) return undefined;
  let text = '';
  for (const name in value) {
    const json = Object.prototype.hasOwnProperty.call(value, name)
      ? field((value as Record<string, unknown>)[name])
      : undefined;
    if (json === undefined) return undefined;
    text += `${text ? ',' : '{'}${quote(name)}:${json}`;
  }
  return text ? `${text}}` : '{}';
}

/** A plain object of numbers (the memory), else undefined. */
const numbersJson = (value: unknown): string | undefined =>
  objectJson(value, (item) => (typeof item === 'number' ? jsonNumber(item) : undefined));

const LOG_KEYS = ['records', 'errors', 'warnings'] as const;
const RECORD_KEYS = ['time', 'level', 'channel', 'message', 'context'] as const;

/**
 * The log panel in its stored form: records, or [event, listener, delay] references to the events
 * panel (stored-form.ts). A record's context made once for every request (the dispatcher's own
 * records, redact-event-record.ts) is spliced in as its JSON.
 */
export function logJson(panel: Collectors['log']): string | undefined {
  if (
    !isPlain(panel) ||
    !hasKeys(panel, LOG_KEYS) ||
    !isPlainArray(panel.records) ||
    typeof panel.errors !== 'number' ||
    typeof panel.warnings !== 'number'
  )
    return undefined;
  const { records } = panel;
  let text = '{"records":[';
  for (let r = 0; r < records.length; r++) {
    const record = records[r] as unknown;
    const json = isPlainArray(record) ? referenceJson(record) : recordJson(record as LogRecord);
    if (json === undefined) return undefined;
    text += r === 0 ? json : `,${json}`;
  }
  return `${text}],"errors":${jsonNumber(panel.errors)},"warnings":${jsonNumber(panel.warnings)}}`;
}

function referenceJson(reference: readonly unknown[]): string | undefined {
  const [event, listener, delay] = reference;
  if (reference.length !== 3 || typeof event !== 'number' || typeof listener !== 'number' || typeof delay !== 'number')
    return undefined;
  return `[${jsonNumber(event)},${jsonNumber(listener)},${jsonNumber(delay)}]`;
}

function recordJson(record: LogRecord): string | undefined {
  if (
    !isPlain(record) ||
    !hasKeys(record, RECORD_KEYS) ||
    typeof record.time !== 'number' ||
    typeof record.level !== 'string' ||
    typeof record.channel !== 'string' ||
    typeof record.message !== 'string'
  )
    return undefined;
  const context = serialisedJson(record.context) ?? JSON.stringify(record.context);
  if (context === undefined) return undefined;
  return `{"time":${jsonNumber(record.time)},"level":${quote(record.level)},"channel":${quote(record.channel)},"message":${quote(record.message)},"context":${context}}`;
}

const ROUTER_KEYS = ['route', 'params', 'redirect', 'explain', 'definition'] as const;

/** The routing panel of a matched route: its definition's JSON made once per route (router-collector.ts). */
export function routerJson(panel: RouterData): string | undefined {
  if (!isPlain(panel) || !hasKeys(panel, ROUTER_KEYS) || !stringOrNull(panel.route) || !stringOrNull(panel.redirect))
    return undefined;
  const params = stringsJson(panel.params);
  const explain = panel.explain === null ? 'null' : (serialisedJson(panel.explain) ?? JSON.stringify(panel.explain));
  const definition =
    panel.definition === null ? 'null' : (serialisedJson(panel.definition) ?? JSON.stringify(panel.definition));
  if (params === undefined || explain === undefined || definition === undefined) return undefined;
  return `{"route":${nullOrQuoted(panel.route)},"params":${params},"redirect":${nullOrQuoted(panel.redirect)},"explain":${explain},"definition":${definition}}`;
}

/** A plain object of strings (route parameters), else undefined. */
const stringsJson = (value: unknown): string | undefined =>
  objectJson(value, (item) => (typeof item === 'string' ? quote(item) : undefined));

const SECURITY_KEYS = ['decision', 'rule', 'message'] as const;

export function securityJson(panel: Collectors['security']): string | undefined {
  if (
    !isPlain(panel) ||
    !hasKeys(panel, SECURITY_KEYS) ||
    typeof panel.decision !== 'string' ||
    !stringOrNull(panel.rule) ||
    !stringOrNull(panel.message)
  )
    return undefined;
  return `{"decision":${quote(panel.decision)},"rule":${nullOrQuoted(panel.rule)},"message":${nullOrQuoted(panel.message)}}`;
}

const HTTP_CLIENT_KEYS = ['calls', 'totalTime', 'errors'] as const;

/** The HTTP client panel when no call was made (most requests); undefined otherwise. */
export function httpClientJson(panel: Collectors['http_client']): string | undefined {
  if (
    !isPlain(panel) ||
    !hasKeys(panel, HTTP_CLIENT_KEYS) ||
    !isPlainArray(panel.calls) ||
    panel.calls.length > 0 ||
    typeof panel.totalTime !== 'number' ||
    typeof panel.errors !== 'number'
  )
    return undefined;
  return `{"calls":[],"totalTime":${jsonNumber(panel.totalTime)},"errors":${jsonNumber(panel.errors)}}`;
}

const DUMP_KEYS = ['dumps'] as const;

/** The dump panel when nothing was dumped (most requests); undefined otherwise. */
export function dumpJson(panel: Collectors['dump']): string | undefined {
  if (!isPlain(panel) || !hasKeys(panel, DUMP_KEYS) || !isPlainArray(panel.dumps) || panel.dumps.length > 0)
    return undefined;
  return '{"dumps":[]}';
}

function stringOrNull(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}

function nullOrQuoted(value: string | null): string {
  return value === null ? 'null' : quote(value);
}

const REQUEST_KEYS = [
  'method',
  'url',
  'server',
  'path',
  'route',
  'routeParams',
  'controller',
  'query',
  'headers',
  'cookies',
  'body',
  'response',
  'redacted',
] as const;
const RESPONSE_KEYS = ['status', 'statusText', 'headers', 'size', 'contentType', 'title', 'structure', 'body'] as const;
const SERVER_KEYS = ['address', 'port'] as const;
const BODY_KEYS = ['size', 'contentType', 'truncated', 'text'] as const;
const STRUCTURE_KEYS = ['kind', 'nodes', 'hash'] as const;

/** The request panel as the request collector makes it (request-collector.ts). */
export function requestJson(panel: Collectors['request']): string | undefined {
  if (
    !isPlain(panel) ||
    !hasKeys(panel, REQUEST_KEYS) ||
    typeof panel.method !== 'string' ||
    typeof panel.url !== 'string' ||
    typeof panel.path !== 'string' ||
    !stringOrNull(panel.route) ||
    !stringOrNull(panel.controller) ||
    !isPlainArray(panel.redacted)
  )
    return undefined;
  const server = panel.server === null ? 'null' : serverJson(panel.server);
  const routeParams = stringsJson(panel.routeParams);
  const query = headersJson(panel.query);
  const headers = headersJson(panel.headers);
  const cookies = stringsJson(panel.cookies);
  const body = bodyJson(panel.body);
  const response = responseJson(panel.response);
  const redacted = stringsArrayJson(panel.redacted);
  if (
    server === undefined ||
    routeParams === undefined ||
    query === undefined ||
    headers === undefined ||
    cookies === undefined ||
    body === undefined ||
    response === undefined ||
    redacted === undefined
  )
    return undefined;
  return (
    `{"method":${quote(panel.method)},"url":${JSON.stringify(panel.url)},"server":${server},"path":${JSON.stringify(panel.path)},"route":${nullOrQuoted(panel.route)},` +
    `"routeParams":${routeParams},"controller":${nullOrQuoted(panel.controller)},"query":${query},"headers":${headers},"cookies":${cookies},"body":${body},` +
    `"response":${response},"redacted":${redacted}}`
  );
}

function serverJson(server: unknown): string | undefined {
  const { address, port } = server as { address: unknown; port: unknown };
  if (!isPlain(server) || !hasKeys(server, SERVER_KEYS) || typeof address !== 'string' || typeof port !== 'number')
    return undefined;
  return `{"address":${quote(address)},"port":${jsonNumber(port)}}`;
}

function responseJson(response: Collectors['request']['response']): string | undefined {
  if (
    !isPlain(response) ||
    !hasKeys(response, RESPONSE_KEYS) ||
    typeof response.status !== 'number' ||
    typeof response.statusText !== 'string' ||
    (response.size !== null && typeof response.size !== 'number') ||
    !stringOrNull(response.contentType) ||
    !stringOrNull(response.title)
  )
    return undefined;
  const headers = headersJson(response.headers);
  const structure = structureJson(response.structure);
  const body = bodyJson(response.body);
  if (headers === undefined || structure === undefined || body === undefined) return undefined;
  return (
    `{"status":${jsonNumber(response.status)},"statusText":${quote(response.statusText)},"headers":${headers},"size":${response.size === null ? 'null' : jsonNumber(response.size)},` +
    `"contentType":${nullOrQuoted(response.contentType)},"title":${response.title === null ? 'null' : JSON.stringify(response.title)},"structure":${structure},"body":${body}}`
  );
}

function bodyJson(body: unknown): string | undefined {
  if (body === null) return 'null';
  const { size, contentType, truncated, text } = body as Record<string, unknown>;
  if (
    !isPlain(body) ||
    !hasKeys(body, BODY_KEYS) ||
    typeof size !== 'number' ||
    !stringOrNull(contentType) ||
    typeof truncated !== 'boolean' ||
    typeof text !== 'string'
  )
    return undefined;
  return `{"size":${jsonNumber(size)},"contentType":${nullOrQuoted(contentType)},"truncated":${truncated},"text":${JSON.stringify(text)}}`;
}

function structureJson(structure: unknown): string | undefined {
  if (structure === null) return 'null';
  const { kind, nodes, hash } = structure as Record<string, unknown>;
  if (
    !isPlain(structure) ||
    !hasKeys(structure, STRUCTURE_KEYS) ||
    typeof kind !== 'string' ||
    typeof nodes !== 'number' ||
    typeof hash !== 'string'
  )
    return undefined;
  return `{"kind":${quote(kind)},"nodes":${jsonNumber(nodes)},"hash":${quote(hash)}}`;
}

/** Headers and query values: a plain object of strings and arrays of strings. */
function headersJson(value: unknown): string | undefined {
  if (!isPlain(value)) return undefined;
  let text = '';
  for (const name in value) {
    const field = (value as Record<string, unknown>)[name];
    const json = typeof field === 'string' ? quote(field) : isPlainArray(field) ? stringsArrayJson(field) : undefined;
    if (json === undefined || !Object.prototype.hasOwnProperty.call(value, name)) return undefined;
    text += `${text ? ',' : '{'}${quote(name)}:${json}`;
  }
  return text ? `${text}}` : '{}';
}

function stringsArrayJson(values: readonly unknown[]): string | undefined {
  let text = '[';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== 'string') return undefined;
    text += i === 0 ? quote(value) : `,${quote(value)}`;
  }
  return `${text}]`;
}
