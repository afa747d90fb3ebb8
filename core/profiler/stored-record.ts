import { serialisedJson } from '../debug/request-recording.js';
import { buildProfile } from './build-profile.js';
import { ByteReader, ByteWriter } from './handoff/byte-writer.js';
import { readRecordBody, writeDescribedBody } from './handoff/request-record.js';
import type { Profile, RequestData, RouterData } from './profile.js';
import { DescribedBody } from './request-facts.js';
import { routerJson } from './storage/panel-json.js';

/**
 * A stored record: the request's hand-off record as the kernel wrote it (handoff/request-record.ts),
 * kept as it is and made readable on its own; its profile is built when someone reads it, not when
 * it is stored. The profiler worker stores one for every request whose record the redaction policy
 * leaves as it is (redacts-nothing.ts), which is nearly every request of a dev server, without
 * building its profile; a request carrying a secret is stored as its redacted profile's JSON, as
 * before (a stored entry starting with "{"), so that no secret is ever at rest.
 *
 * Layout, version 2 (version 1, still read, is the same but never holds a database query written field
 * by field: handoff/query-record.ts):
 *   0  1  0x01: a stored record
 *   1  1  its format version: 2
 *   2  1  where its body began, modulo 8, in the batch it came in (the body's number rows are
 *         8-byte aligned there, and are read in place)
 *   3  …  as ByteWriter writes them: uint n, then n × (uint id, string name): the trace names
 *         (events, listeners, phases, values sent once: the configuration) the body refers to by id;
 *         string: the routing panel's JSON, as the worker built it from its route table;
 *         bytes: the body, as readRecordBody reads it
 */
export const STORED_RECORD = 0x01;
const VERSION = 2;
/** the oldest version this appkernel reads: version 1 differs only by a value kind it never holds */
const OLDEST_VERSION = 1;

/** The names sections last written, by the ids they hold (most records of one route refer to the same names). */
const sections = new Map<string, Uint8Array>();
const MAX_SECTIONS = 256;
const section = new ByteWriter();

function namesSection(ids: readonly number[], names: readonly string[]): Uint8Array {
  const key = ids.join(',');
  let bytes = sections.get(key);
  if (bytes === undefined) {
    section.uint(ids.length);
    for (const id of ids) {
      section.uint(id);
      section.string(names[id] ?? '');
    }
    bytes = new Uint8Array(section.take());
    if (sections.size >= MAX_SECTIONS) sections.clear();
    sections.set(key, bytes);
  }
  return bytes;
}

/**
 * Writes the stored record of a request into `w`: `record` is the batch
 * its hand-off record came in, `bodyOffset` where that record's body begins (after its names) and
 * `responseBodyOffset` where its response body begins, which is stored as what the request panel
 * shows of it (DescribedBody: its size, title, structure and preview), never the body itself.
 * `ids`: the name ids the body refers to; `names`: the worker's names; `router` and `response`: the
 * routing panel the worker built and what the request panel shows of the response.
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
): void {
  w.uint(STORED_RECORD);
  w.uint(VERSION);
  w.uint(bodyOffset & 7);
  w.raw(namesSection(ids, names));
  w.string(serialisedJson(router) ?? routerJson(router) ?? JSON.stringify(router));
  const length = w.reserve32();
  const start = w.length;
  w.raw(record.subarray(bodyOffset, responseBodyOffset));
  writeDescribedBody(
    w,
    new DescribedBody(response.size ?? 0, response.title ?? null, response.structure ?? null, response.body ?? null),
  );
  w.patch32(length, w.length - start);
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
  const stored = r.bytes();
  const aligned = new Uint8Array(align + stored.length);
  aligned.set(stored, align);
  const reader = new ByteReader(aligned);
  reader.seek(align);
  const { request, trace, response } = readRecordBody(reader, names, null);
  return buildProfile(request, trace, response, { router });
}
