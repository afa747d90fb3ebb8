import { buildProfile } from '../build-profile.js';
import type { ProfileSummary } from '../profile.js';
import { summarize } from '../storage/index-line.js';
import { storedJson } from '../storage/stored-json.js';
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
let out = Buffer.allocUnsafeSlow(1 << 20);

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
  let total = 0;
  while (!reader.done) {
    const length = reader.fixed32();
    const end = reader.offset + length;
    let token = '';
    try {
      const { routes, request, trace, response } = readRequestRecord(reader, names);
      token = trace.token ?? '';
      const profile = buildProfile(request, trace, response, tables.get(routes));
      const json = storedJson(profile);
      const summary = summarize(profile);
      // Each UTF-16 unit makes at most 3 bytes.
      if (total + json.length * 3 > out.length) {
        const grown = Buffer.allocUnsafeSlow(Math.max(out.length * 2, total + json.length * 3));
        out.copy(grown, 0, 0, total);
        out = grown;
      }
      const written = out.write(json, total);
      lengths.push(written);
      summaries.push(summary);
      total += written;
    } catch (error) {
      failures.push([token, (error as Error)?.message ?? String(error)]);
    }
    reader.seek(end);
  }
  const jsons = new Uint8Array(total);
  jsons.set(out.subarray(0, total));
  return { jsons: jsons.buffer, lengths, summaries, failures };
}
