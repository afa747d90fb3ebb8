import { buildProfile } from '../build-profile.js';
import type { ProfileSummary } from '../profile.js';
import { summarize } from '../storage/index-line.js';
import { storedJson } from '../storage/stored-json.js';
import { ByteReader, ByteWriter } from './byte-writer.js';
import { NameUse, readRecordBody, readRecordNames } from './request-record.js';
import { storableAsRecord, writeStoredRecord } from '../stored-record.js';
import type { RouteDefinitionData, RouteTables } from './route-tables.js';

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
}

/** the name ids of the record being read */
const used = new NameUse();

/** Where a batch's stored entries are written, one after another; kept from batch to batch. */
const out = new ByteWriter();

/**
 * Every record of a batch turned into what the store keeps of it: its profile is built, which
 * redacts it (build-profile.ts) and gives its summary; a record whose profile shows nothing redacted
 * is kept as it is (stored-record.ts), any other as its profile's stored JSON. `names`: the trace
 * names read so far (request-record.ts), completed by the batch's records.
 * Runs in the profiler worker; on the main thread only if the worker failed.
 */
export function buildRecordedProfiles(
  records: ArrayBuffer | Uint8Array,
  tables: RouteTables,
  names: string[],
): BuiltBatch {
  const bytes = records instanceof Uint8Array ? records : new Uint8Array(records);
  const reader = new ByteReader(bytes);
  const lengths: number[] = [];
  const summaries: ProfileSummary[] = [];
  const failures: [string, string][] = [];
  while (!reader.done) {
    const length = reader.fixed32();
    const end = reader.offset + length;
    let token = '';
    const start = out.length;
    try {
      readRecordNames(reader, names);
      const bodyOffset = reader.offset;
      used.clear();
      const { routes, responseBodyOffset, request, trace, response } = readRecordBody(reader, names, used);
      token = trace.token ?? '';
      const profile = buildProfile(request, trace, response, tables.get(routes));
      const summary = summarize(profile);
      if (storableAsRecord(profile, request, trace))
        writeStoredRecord(out, bytes, bodyOffset, responseBodyOffset, used.ids, names, profile);
      else out.text(storedJson(profile));
      lengths.push(out.length - start);
      summaries.push(summary);
    } catch (error) {
      out.rewind(start);
      failures.push([token, (error as Error)?.message ?? String(error)]);
    }
    reader.seek(end);
  }
  return { jsons: out.take(), lengths, summaries, failures };
}
