import { serialisedJson } from '../debug/request-recording.js';
import { buildProfile, ENTRY_PANELS, type EntryPanel, type RoutingFacts } from './build-profile.js';
import { ByteReader, ByteWriter } from './handoff/byte-writer.js';
import {
  type DecodedRecord,
  NameUse,
  readRecordBody,
  usedByRows,
  writeDescribedBody,
  writeRedactedBody,
} from './handoff/request-record.js';
import type { BodyData, Collectors, Profile, RequestData, RouterData } from './profile.js';
import { DescribedBody } from './request-facts.js';

/**
 * A stored record: the request's hand-off record as the kernel wrote it (handoff/request-record.ts),
 * kept as it is and made readable on its own; its profile is built when someone reads it, not when
 * it is stored. The profiler worker stores the record of every request whose record the redaction
 * policy leaves as it is (redacts-nothing.ts), which is nearly every request of a dev server, without
 * building its profile. The record of a request carrying a secret is written again with the texts its
 * redacted profile shows (writeRedactedRecord), and the panels of its app entries, redacted, in place
 * of the entries: no secret is ever at rest. (Stores written by earlier versions also hold profiles as
 * JSON: a stored entry starting with "{", read by stored-profile-reader.ts.)
 *
 * Layout, version 4 (version 3, still read, has no database query that refers to the one before it,
 * handoff/query-record.ts; version 2 has no entry panels either; version 1, the same, never holds a
 * database query written field by field):
 *   0  1  0x01: a stored record
 *   1  1  its format version: 4
 *   2  1  where its body began, modulo 8, in the batch it came in (the body's number rows are
 *         8-byte aligned there, and are read in place)
 *   3  …  as ByteWriter writes them: uint n, then n × (uint id, string name): the trace names
 *         (events, listeners, phases, values sent once: the configuration) the body refers to by id;
 *         string: the routing panel's JSON, as the worker built it from its route table;
 *         string: the panels of the app's entries as JSON, in a redacted record; else empty;
 *         bytes: the body, as readRecordBody reads it
 */
export const STORED_RECORD = 0x01;
const VERSION = 4;
/** the first version with entry panels */
const ENTRY_PANELS_VERSION = 3;
/** the oldest version this appkernel reads: version 1 differs from 2 only by a value kind it never holds */
const OLDEST_VERSION = 1;

const NO_NAMES: ReadonlyMap<number, string> = new Map();

/** The names sections last written, by the ids they hold (most records of one route refer to the same names). */
const sections = new Map<string, Uint8Array>();
const MAX_SECTIONS = 256;
const section = new ByteWriter();
/** the section last written: the record before most often refers to the same names */
let last: { ids: number[]; replacedIds: string; bytes: Uint8Array } | null = null;

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function namesSection(
  ids: readonly number[],
  names: readonly string[],
  replaced: ReadonlyMap<number, string>,
): Uint8Array {
  // A replaced value (the configuration's redacted panel) is the same for every record that refers to it.
  const replacedIds = replaced.size === 0 ? '' : [...replaced.keys()].join(',');
  if (last !== null && last.replacedIds === replacedIds && sameIds(last.ids, ids)) return last.bytes;
  const key = `${ids.join(',')}|${replacedIds}`;
  let bytes = sections.get(key);
  if (bytes === undefined) {
    section.uint(ids.length);
    for (const id of ids) {
      section.uint(id);
      section.string(replaced.get(id) ?? names[id] ?? '');
    }
    bytes = new Uint8Array(section.take());
    if (sections.size >= MAX_SECTIONS) sections.clear();
    sections.set(key, bytes);
  }
  last = { ids: ids.slice(), replacedIds, bytes };
  return bytes;
}

/**
 * Writes the stored record of a request into `w`: `record` is the batch
 * its hand-off record came in, `bodyOffset` where that record's body begins (after its names) and
 * `responseBodyOffset` where its response body begins, which is stored as what the request panel
 * shows of it (DescribedBody: its size, title, structure and preview), never the body itself.
 * `ids`: the name ids the body refers to; `names`: the worker's names; `router` and `response`: the
 * routing panel the worker built and what the request panel shows of the response; `entryPanels`:
 * the JSON of the panels of a redacted record's app entries (and where the request panel lists redactions);
 * `replacedNames`: what the record carries in place of some names (a value sent once, redacted).
 * Returns where the body's bytes begin in `w`.
 */
export function writeStoredRecord(
  w: ByteWriter,
  record: Uint8Array,
  bodyOffset: number,
  responseBodyOffset: number,
  ids: readonly number[],
  names: readonly string[],
  router: RouterData,
  response: RequestData['response'],
  entryPanels = '',
  replacedNames: ReadonlyMap<number, string> = NO_NAMES,
): number {
  w.uint(STORED_RECORD);
  w.uint(VERSION);
  w.uint(bodyOffset & 7);
  w.raw(namesSection(ids, names, replacedNames));
  w.string(routerJson(router));
  w.string(entryPanels);
  const length = w.reserve32();
  const start = w.length;
  w.raw(record.subarray(bodyOffset, responseBodyOffset));
  writeDescribedBody(w, describedJson(response));
  w.patch32(length, w.length - start);
  return start;
}

/** The profile of a stored record (bytes starting with STORED_RECORD), built from it; throws saying what is wrong. */
export function profileFromStoredRecord(bytes: Uint8Array): Profile {
  const r = new ByteReader(bytes);
  r.uint();
  const version = r.uint();
  if (version > VERSION)
    throw new Error(
      `it was recorded by a newer appkernel (stored record version ${version}; this one reads version ${VERSION})`,
    );
  if (version < OLDEST_VERSION) throw new Error(`its stored record version ${version} is none appkernel wrote`);
  const align = r.uint();
  if (align > 7) throw new Error('its body alignment is not a number from 0 to 7');
  const names: string[] = [];
  for (let n = r.uint(); n > 0; n--) {
    const id = r.uint();
    if (id > 1_000_000) throw new Error(`it names trace name ${id}, more than any process makes`);
    names[id] = r.string();
  }
  const router = JSON.parse(r.string()) as RouterData;
  const entryPanels = version >= ENTRY_PANELS_VERSION ? r.string() : '';
  const built = entryPanels === '' ? {} : entryPanelsFrom(JSON.parse(entryPanels));
  const stored = r.bytes();
  const aligned = new Uint8Array(align + stored.length);
  aligned.set(stored, align);
  const reader = new ByteReader(aligned);
  reader.seek(align);
  const { request, trace, response } = readRecordBody(reader, names, null);
  return buildProfile(request, trace, response, { ...built, router });
}

/** The entry panels a stored record holds, and only those: anything else in their JSON is left out. */
function entryPanelsFrom(value: unknown): Omit<RoutingFacts, 'router'> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('its entry panels are not an object');
  const panels: Partial<Record<EntryPanel, unknown>> & { redacted?: string[] } = {};
  for (const name of ENTRY_PANELS) if (name in value) panels[name] = (value as Record<string, unknown>)[name];
  const { redacted } = value as { redacted?: unknown };
  if (Array.isArray(redacted)) panels.redacted = redacted.map(String);
  return panels as Omit<RoutingFacts, 'router'>;
}

/** Reused for each redacted record: its body, written before it is copied into the stored record, and its names. */
const redactedBody = new ByteWriter();
const rowNames = new NameUse();

/**
 * Writes the stored record of a request that carried something the redaction policy changes: its
 * record, read into `decoded`, written again with the texts its redacted profile `profile` shows
 * (request head and body, route parameters, security message, exception, log), and the panels of
 * its app entries, redacted, in place of the entries. Its names are only those of the trace's rows
 * (a value sent once, the configuration, is in its entry panels, redacted). `names`: the worker's names.
 */
export function writeRedactedRecord(
  w: ByteWriter,
  decoded: DecodedRecord,
  names: readonly string[],
  profile: Profile,
): void {
  const { request: panel, security, exception, log, router } = profile.collectors;
  const { baseUrl } = decoded.request;
  const target = panel.url.startsWith(baseUrl) ? panel.url.slice(baseUrl.length) : panel.path;
  const mark = target.indexOf('?');
  writeRedactedBody(redactedBody, decoded, {
    path: mark < 0 ? target : target.slice(0, mark),
    queryString: mark < 0 ? '' : target.slice(mark + 1),
    headers: withCookies(panel.headers, panel.cookies),
    body: panel.body?.text ?? null,
    params: panel.routeParams,
    securityMessage: security.message,
    exceptionJson: exception === null ? null : JSON.stringify(exception),
    log: log.records,
    responseHeaders: panel.response.headers,
  });
  const responseBodyOffset = redactedBody.length;
  const body = new Uint8Array(redactedBody.take());
  // A value redacted once shows REDACTED and is not listed again when the record is read: the list travels with it.
  const entryPanels: RoutingFacts = { router, redacted: panel.redacted };
  for (const name of ENTRY_PANELS) {
    if (profile.collectors[name] !== undefined)
      (entryPanels as Record<string, unknown>)[name] = profile.collectors[name];
  }
  rowNames.clear();
  usedByRows(decoded.rows, rowNames);
  writeStoredRecord(
    w,
    body,
    0,
    responseBodyOffset,
    rowNames.ids,
    names,
    router,
    panel.response,
    JSON.stringify({ ...entryPanels, router: undefined }),
  );
}

/** The request's headers as its panel shows them, its cookie header (shown whole as REDACTED) made again from its cookies' redacted values. */
function withCookies(headers: Record<string, string>, cookies: Record<string, string>): Record<string, string> {
  if (headers.cookie === undefined) return headers;
  const pairs: string[] = [];
  for (const name in cookies) pairs.push(`${name}=${cookies[name]}`);
  return { ...headers, cookie: pairs.join('; ') };
}

/**
 * The JSON of the value last written, made again only when the next differs (`same`): a route's
 * records mostly carry the same routing panel (a fresh object round a shared definition) and describe
 * the same response body (its preview and structure the same objects then).
 */
function lastJson<T>(same: (a: T, b: T) => boolean, json: (value: T) => string): (value: T) => string {
  let last: { value: T; json: string } | null = null;
  return (value) => {
    if (last === null || !same(last.value, value)) last = { value, json: json(value) };
    return last.json;
  };
}

/** What the request panel shows of a response body as JSON (DescribedBody), as a stored record keeps it in place of the body. */
const describedJson = lastJson<RequestData['response']>(
  (a, b) => a.size === b.size && a.title === b.title && a.structure === b.structure && samePreview(a.body, b.body),
  (response) =>
    JSON.stringify(
      new DescribedBody(response.size ?? 0, response.title ?? null, response.structure ?? null, response.body ?? null),
    ),
);

function samePreview(a: BodyData | null | undefined, b: BodyData | null | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.text === b.text && a.size === b.size && a.truncated === b.truncated && a.contentType === b.contentType;
}

const routingJson = lastJson<RouterData>(
  (a, b) =>
    a.route === b.route &&
    a.redirect === b.redirect &&
    a.explain === b.explain &&
    a.definition === b.definition &&
    sameStrings(a.params, b.params),
  (router) => JSON.stringify(router),
);

/** The routing panel's JSON: made once with the panel when it is shared (a miss's), else as the last one's when the same. */
function routerJson(router: RouterData): string {
  return serialisedJson(router) ?? routingJson(router);
}

function sameStrings(a: Record<string, string>, b: Record<string, string>): boolean {
  let count = 0;
  for (const name in a) {
    if (a[name] !== b[name] || !Object.hasOwn(b, name)) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}
