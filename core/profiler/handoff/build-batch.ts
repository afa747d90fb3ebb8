import { buildProfile } from '../build-profile.js';
import type { ProfileSummary } from '../profile.js';
import { summarize } from '../storage/index-line.js';
import { JsonSink } from '../storage/json-sink.js';
import { writeStoredJson } from '../storage/stored-json.js';
import { ByteReader } from './byte-writer.js';
import { readRequestRecord } from './request-record.js';
import type { RouteDefinitionData, RouteTables } from './route-tables.js';

export interface RouteTableMessage {
  type: 'routes';
  id: number;
  routes: RouteDefinitionData[];
}

/** What the worker sends back for a batch of records: the profiles' stored JSON, end to end, and their summaries. */
export interface BuiltBatch {
  /** UTF-8 JSON texts one after another; lengths[i] bytes each */
  jsons: ArrayBuffer;
  lengths: number[];
  summaries: ProfileSummary[];
  /** tokens of records that could not be turned into a profile, and why */
  failures: [token: string, reason: string][];
}

/** Where a batch's JSON texts are written as UTF-8, one after another; kept from batch to batch, grown when short. */
const out = new JsonSink();

/**
 * Every record of a batch turned into its stored profile: the panels built and their
 * secrets redacted (build-profile.ts), the stored form as JSON bytes. `names`: the trace
 * names read so far (request-record.ts), completed by the batch's records.
 * Runs in the profiler worker; on the main thread only if the worker failed.
 */
export function buildRecordedProfiles(records: ArrayBuffer | Uint8Array, tables: RouteTables, names: string[]): BuiltBatch {
  const reader = new ByteReader(records);
  const lengths: number[] = [];
  const summaries: ProfileSummary[] = [];
  const failures: [string, string][] = [];
  out.at = 0;
  while (!reader.done) {
    const length = reader.fixed32();
    const end = reader.offset + length;
    let token = '';
    const start = out.at;
    try {
      const { routes, request, trace, response } = readRequestRecord(reader, names);
      token = trace.token ?? '';
      const profile = buildProfile(request, trace, response, tables.get(routes));
      writeStoredJson(out, profile);
      summaries.push(summarize(profile));
      lengths.push(out.at - start);
    } catch (error) {
      out.at = start;
      failures.push([token, (error as Error)?.message ?? String(error)]);
    }
    reader.seek(end);
  }
  const jsons = new Uint8Array(out.at);
  jsons.set(out.bytes.subarray(0, out.at));
  return { jsons: jsons.buffer, lengths, summaries, failures };
}
