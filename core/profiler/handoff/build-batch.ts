import { collectContext, profileOf } from '../build-profile.js';
import { collectRouter } from '../collectors/router-collector.js';
import type { ProfileSummary } from '../profile.js';
import { redactsNothing } from '../redacts-nothing.js';
import { summarize } from '../storage/index-line.js';
import { summaryOf } from '../profile-summary.js';
import { ByteReader, ByteWriter } from './byte-writer.js';
import { NameUse, readRecordBody, readRecordNames } from './request-record.js';
import { writeRedactedRecord, writeStoredRecord } from '../stored-record.js';
import type { RouteDefinitionData, RouteTables } from './route-tables.js';
import { type Known, RecordShapes } from './record-shapes.js';
import { isTokenHeader } from './varying-parts.js';
import type { StoredEntry } from '../storage/profile-storage.js';

export interface RouteTableMessage {
  type: 'routes';
  id: number;
  routes: RouteDefinitionData[];
}

/** What the worker sends back for a batch of records: what the store keeps of each (stored-record.ts), end to end, and their summaries. */
export interface BuiltBatch {
  /** stored entries one after another, lengths[i] bytes each: a stored record, or a profile's UTF-8 JSON */
  jsons: ArrayBuffer;
  lengths: number[];
  summaries: ProfileSummary[];
  /** tokens of records that could not be turned into a profile, and why */
  failures: [token: string, reason: string][];
  /**
   * for each stored entry, when it is the same request as an earlier entry of the batch (record
   * shapes): that entry's index, and where this one may differ from it (storage/entry-patch.ts)
   */
  likes: (EntryLike | null)[];
}

/** An entry like the entry `index` of its batch but at the places named (storage/entry-patch.ts Likeness, without the base's bytes). */
export interface EntryLike {
  index: number;
  at: number;
  floats: readonly number[];
  runs: readonly number[];
}

/** the name ids of the record being read, and the redacted JSON of the values sent once it refers to, when the policy redacts them */
const used = new NameUse();
const sentOnce = new Map<number, string>();

/** Where a batch's stored entries are written, one after another; kept from batch to batch. */
const out = new ByteWriter();

/** The shapes of the records stored as they are, for a record made like one of them (record-shapes.ts). */
export const storedShapes = new RecordShapes();

/**
 * Every record of a batch turned into what the store keeps of it, with its summary: a record the
 * redaction policy leaves as it is (redacts-nothing.ts) is kept as it is (stored-record.ts), with
 * its routing panel and what its request panel shows of the response, and no profile is built; any
 * other is written again with the texts of its redacted profile (build-profile.ts). A record made like
 * one stored as it is before (`shapes`, record-shapes.ts: the same request but for its token and clock
 * readings) is stored as that one was, without being read. `names`: the trace names read so far
 * (request-record.ts), completed by the batch's records.
 * Runs in the profiler worker; on the main thread only if the worker failed.
 */
export function buildRecordedProfiles(
  records: ArrayBuffer | Uint8Array,
  tables: RouteTables,
  names: string[],
  shapes: RecordShapes | null = storedShapes,
): BuiltBatch {
  const bytes = records instanceof Uint8Array ? records : new Uint8Array(records);
  const reader = new ByteReader(bytes);
  const lengths: number[] = [];
  const summaries: ProfileSummary[] = [];
  const failures: [string, string][] = [];
  const likes: (EntryLike | null)[] = [];
  /** the batch's last entry of each shape, by index */
  const lastOfShape = new Map<Known, number>();
  while (!reader.done) {
    const length = reader.fixed32();
    const end = reader.offset + length;
    let token = '';
    const start = out.length;
    try {
      readRecordNames(reader, names);
      const bodyOffset = reader.offset;
      const known = shapes?.find(bytes, reader, bodyOffset, end, names, tables) ?? null;
      if (known !== null) {
        const { shape } = known;
        token = known.token;
        const bodyAt = writeStoredRecord(
          out,
          bytes,
          bodyOffset,
          bodyOffset + shape.responseBody,
          shape.ids,
          names,
          shape.router,
          shape.response,
          '',
          shape.sentOnce,
        );
        summaries.push({ ...shape.summary, token, time: known.time, duration: known.duration });
        const last = lastOfShape.get(shape);
        const { varying } = shape;
        likes.push(
          last === undefined ? null : { index: last, at: bodyAt - start, floats: varying.floats, runs: varying.runs },
        );
        lastOfShape.set(shape, lengths.length);
        lengths.push(out.length - start);
        reader.seek(end);
        continue;
      }
      used.clear();
      const decoded = readRecordBody(reader, names, used);
      const { routes, responseBodyOffset, request, trace, response } = decoded;
      token = trace.token ?? '';
      const table = tables.get(routes);
      const context = collectContext(request, trace, response, table);
      const router = collectRouter(context);
      sentOnce.clear();
      if (redactsNothing(context, router, sentOnce)) {
        const { requestData } = context;
        writeStoredRecord(
          out,
          bytes,
          bodyOffset,
          responseBodyOffset,
          used.ids,
          names,
          router,
          requestData.response,
          '',
          sentOnce,
        );
        const summary = summaryOf(request, trace, response, requestData);
        summaries.push(summary);
        likes.push(null);
        const remembered = shapes?.remember(
          {
            ids: used.ids.slice(),
            router,
            response: requestData.response,
            sentOnce: new Map(sentOnce),
            summary,
            responseBody: responseBodyOffset - bodyOffset,
            table,
            tokenHeads: tokenHeads(response.headers, token),
          },
          typeof response.body === 'string' || Buffer.isBuffer(response.body) ? response.body : null,
        );
        if (remembered) lastOfShape.set(remembered, lengths.length);
      } else {
        const profile = profileOf(context, table);
        writeRedactedRecord(out, decoded, names, profile);
        summaries.push(summarize(profile));
        likes.push(null);
      }
      lengths.push(out.length - start);
    } catch (error) {
      out.rewind(start);
      summaries.length = likes.length = lengths.length;
      failures.push([token, (error as Error)?.message ?? String(error)]);
    }
    reader.seek(end);
  }
  return { jsons: out.take(), lengths, summaries, failures, likes };
}

/** The profiler's own response headers that end with the token, without it (record-shapes.ts judges them again with another). */
function tokenHeads(headers: Record<string, string>, token: string): string[] {
  const heads: string[] = [];
  if (token === '') return heads;
  for (const name in headers) {
    const value = headers[name];
    if (isTokenHeader(name) && value.endsWith(token)) heads.push(value.slice(0, value.length - token.length));
  }
  return heads;
}

/**
 * A built batch's stored entries as a store takes them: each a view of the batch's bytes, and each
 * entry like an earlier one of the batch (`likes`) given that entry to be kept as its change from.
 */
export function storedEntries(built: BuiltBatch): StoredEntry[] {
  let at = 0;
  const entries: StoredEntry[] = built.summaries.map((summary, i) => {
    const json = Buffer.from(built.jsons, at, built.lengths[i]);
    at += built.lengths[i];
    return { json, summary };
  });
  built.likes.forEach((like, i) => {
    if (like !== null)
      entries[i].like = { base: entries[like.index].json, at: like.at, floats: like.floats, runs: like.runs };
  });
  return entries;
}
