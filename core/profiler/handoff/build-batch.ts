import { buildProfile } from '../build-profile.js';
import type { ProfileSummary } from '../profile.js';
import { summarize } from '../storage/index-line.js';
import { toStoredForm } from '../storage/stored-form.js';
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

const encoder = new TextEncoder();

/**
 * Every record of a batch turned into its stored profile: the panels built and their
 * secrets redacted (build-profile.ts), the stored form as JSON bytes. `names`: the trace
 * names read so far (request-record.ts), completed by the batch's records.
 * Runs in the profiler worker; on the main thread only if the worker failed.
 */
export function buildRecordedProfiles(records: ArrayBuffer, tables: RouteTables, names: string[]): BuiltBatch {
  const reader = new ByteReader(records);
  const texts: Uint8Array[] = [];
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
      const bytes = encoder.encode(JSON.stringify(toStoredForm(profile)));
      texts.push(bytes);
      summaries.push(summarize(profile));
      total += bytes.length;
    } catch (error) {
      failures.push([token, (error as Error)?.message ?? String(error)]);
    }
    reader.seek(end);
  }
  const jsons = new Uint8Array(total);
  let at = 0;
  for (const text of texts) {
    jsons.set(text, at);
    at += text.length;
  }
  return { jsons: jsons.buffer, lengths: texts.map((text) => text.length), summaries, failures };
}
