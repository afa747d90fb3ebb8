import { brotliDecompressSync, crc32, inflateRawSync } from 'node:zlib';
import type { Profile } from '../profile.js';
import { profileFromStoredRecord, STORED_RECORD } from '../stored-record.js';
import { fromStoredForm } from './stored-form.js';
import { DICTIONARY_V1 } from './compression-dictionary.js';

/**
 * The one place where bytes read from a store (a segment of the file store, a block or body of
 * the PostgreSQL store) become text and then a profile. A team's shared store is input: anyone
 * with write access to it can plant a row, so every read is bounded before memory is spent on it
 * and checked against the stored model before a page or the CLI uses it. A problem is returned as
 * a sentence, which the stores turn into APP_ERR_PROFILER_STORE_CORRUPT ("damaged or too large").
 */

/** Compressed bytes of one block or body: well above any block the writers produce (64 KB of JSON, one large profile alone). */
export const MAX_COMPRESSED_BYTES = 64 * 1024 * 1024;
/** Inflated bytes of one block, enforced while inflating: a 1 MB "bomb" stops here instead of taking gigabytes. */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/** How a block's payload was compressed: brotli, as blocks are written now, or deflate-raw with DICTIONARY_V1, as earlier ones were. */
export type BlockCompression = 'brotli' | 'deflate';

/** The inflated text of a compressed payload, or the problem with it. */
export function inflateBounded(payload: Uint8Array, compression: BlockCompression = 'deflate'): Buffer | string {
  if (payload.length > MAX_COMPRESSED_BYTES)
    return `it is ${payload.length} bytes compressed, more than the ${MAX_COMPRESSED_BYTES} a profile may take`;
  try {
    return compression === 'brotli'
      ? brotliDecompressSync(payload, { maxOutputLength: MAX_INFLATED_BYTES })
      : inflateRawSync(payload, { dictionary: DICTIONARY_V1, maxOutputLength: MAX_INFLATED_BYTES });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError)
      return `it inflates to more than the ${MAX_INFLATED_BYTES} bytes a profile may take`;
    return `it cannot be decompressed (${(error as Error).message})`;
  }
}

/**
 * Budgets beyond the inflated size: what no server writes (a request head is at most 32 KB), so
 * that a planted profile cannot make a page or a list carry megabytes in one field.
 */
const MAX_URL_CHARS = 65_536;
const MAX_SHORT_FIELD_CHARS = 256;
const MAX_LOG_RECORDS = 500_000;

/** The problem with a parsed stored profile's shape, or null when pages and the CLI can use it. */
export function storedProfileProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it does not hold a profile';
  const p = value as Record<string, unknown>;
  if (typeof p.token !== 'string') return 'its token is not a string';
  if (typeof p.status !== 'number' || !Number.isInteger(p.status)) return 'its status is not a whole number';
  if (typeof p.time !== 'number' || !Number.isFinite(p.time) || Number.isNaN(new Date(p.time).getTime()))
    return 'its time is not a valid date';
  if (typeof p.url !== 'string') return 'its URL is not a string';
  if (p.url.length > MAX_URL_CHARS)
    return `its URL is ${p.url.length} characters, more than the ${MAX_URL_CHARS} a request may have`;
  if (p.method !== undefined && typeof p.method !== 'string') return 'its method is not a string';
  for (const field of ['method', 'ip', 'token'] as const) {
    const value = p[field];
    if (typeof value === 'string' && value.length > MAX_SHORT_FIELD_CHARS)
      return `its ${field} is ${value.length} characters long`;
  }
  if (typeof p.collectors !== 'object' || p.collectors === null || Array.isArray(p.collectors))
    return 'its collectors are not an object';
  const collectors = p.collectors as Record<string, unknown>;
  const log = collectors.log;
  if (
    log !== undefined &&
    (typeof log !== 'object' || log === null || !Array.isArray((log as Record<string, unknown>).records))
  )
    return 'its log panel holds no list of records';
  const records = (log as { records?: unknown[] } | undefined)?.records?.length ?? 0;
  if (records > MAX_LOG_RECORDS)
    return `its log holds ${records} records, more than the ${MAX_LOG_RECORDS} a profile may`;
  // what every view reads outside the panels (the summary, the terminal's header, the menu); a panel's
  // own data is the panel's to show or to say is damaged (panels/panel-definition.ts)
  const request = collectors.request as Record<string, unknown> | undefined;
  if (!isObject(request)) return 'its request panel is not an object';
  if (!isObject(request.headers)) return "its request panel's headers are not an object";
  if (!isObject(request.response)) return "its request panel's response is not an object";
  const custom = collectors.custom;
  if (custom !== undefined && custom !== null) {
    if (!isObject(custom)) return "its app's panels are not an object";
    for (const [name, panel] of Object.entries(custom))
      if (!isObject(panel) || typeof panel.title !== 'string') return `its app panel "${name}" has no title`;
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A profile from its stored JSON text, or the problem with it. */
export function parseStoredProfile(json: string): { ok: true; profile: Profile } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON (${(error as Error).message})` };
  }
  const problem = storedProfileProblem(value);
  return problem ? { ok: false, problem } : { ok: true, profile: value as Profile };
}

/**
 * A profile from a stored entry: a stored record (its first byte STORED_RECORD, stored-record.ts),
 * built now, or the stored JSON of a profile (the first byte "{"), as every store written before
 * records holds; or the problem with it.
 */
export function readStoredEntry(entry: Uint8Array): { ok: true; profile: Profile } | { ok: false; problem: string } {
  if (entry[0] !== STORED_RECORD) {
    const parsed = parseStoredProfile(Buffer.from(entry.buffer, entry.byteOffset, entry.length).toString('utf8'));
    return parsed.ok ? { ok: true, profile: fromStoredForm(parsed.profile) } : parsed;
  }
  const key = `${entry.length}:${crc32(entry)}`;
  const built = recentlyBuilt.get(key);
  if (built !== undefined) {
    recentlyBuilt.delete(key);
    recentlyBuilt.set(key, built);
    return { ok: true, profile: built };
  }
  let profile: Profile;
  try {
    profile = profileFromStoredRecord(entry);
  } catch (error) {
    return { ok: false, problem: `its record cannot be read (${(error as Error)?.message ?? String(error)})` };
  }
  const problem = storedProfileProblem(profile);
  if (problem) return { ok: false, problem };
  if (recentlyBuilt.size >= RECENTLY_BUILT) recentlyBuilt.delete(recentlyBuilt.keys().next().value!);
  recentlyBuilt.set(key, profile);
  return { ok: true, profile };
}

/**
 * The profiles last built from stored records, by the record's length and CRC-32: a page and its
 * panels, the CLI's show after list, read the same profile again and again. Readers never change a profile.
 */
const RECENTLY_BUILT = 64;
const recentlyBuilt = new Map<string, Profile>();
