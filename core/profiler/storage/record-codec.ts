import { crc32, deflateRawSync } from 'node:zlib';
import type { Profile } from '../profile.js';
import { DICTIONARY_V1 } from './compression-dictionary.js';
import { fromStoredForm } from './stored-form.js';
import { inflateBounded, parseStoredProfile } from './stored-profile-reader.js';

/**
 * A block of profiles in a segment: an 11-byte header, then the JSON of each
 * profile, one per line, deflated as one stream with DICTIONARY_V1. One
 * stream per block, not per profile: deflate's set-up costs more than
 * compressing a 5 KB profile, and profiles of one block share most of their
 * text. A profile is found by its block (offset, length) and its line (slot).
 *
 *   0  2  magic "ak"
 *   2  1  format (2: a block, deflate-raw, dictionary v1;
 *                 1: one profile, as stores written before blocks hold)
 *   3  4  payload length, uint32 LE
 *   7  4  CRC-32 of the payload, uint32 LE
 *
 * A record cut short by a crash fails the length check, damaged bytes fail the
 * CRC; either way the record is never decoded as a whole one.
 */
export const RECORD_HEADER_BYTES = 11;
const MAGIC = Buffer.from('ak', 'latin1');
const FORMAT_SINGLE_V1 = 1;
const FORMAT_BLOCK_V1 = 2;
const MAX_PAYLOAD = 64 * 1024 * 1024;
/** Profiles per block at most, and their bytes of JSON (one profile may pass it): a read inflates its whole block. */
export const BLOCK_PROFILES = 32;
export const BLOCK_BYTES = 64 * 1024;
/** Level 3: on blocks of profiles, half the CPU of level 6 for a third more bytes. */
const LEVEL = 3;

export type Decoded = { ok: true; profile: Profile } | { ok: false; problem: string };

/** How payloads are compressed, in this thread or in a worker: the worker receives these options as they are. */
export const DEFLATE_OPTIONS = { level: LEVEL, dictionary: DICTIONARY_V1 };

/** JSON.stringify never writes a raw line feed, so one joins the profiles of a block (\n). */
const LINE_FEED = 0x0a;

/**
 * The UTF-8 JSON of a block's profiles, one per line, in a buffer of its own (not a slice of
 * Node's shared pool), so that it can be handed to a worker thread whole.
 */
export function blockText(jsons: readonly Uint8Array[]): Buffer {
  let size = jsons.length - 1;
  for (const json of jsons) size += json.length;
  const text = Buffer.allocUnsafeSlow(Math.max(0, size));
  let at = 0;
  for (let i = 0; i < jsons.length; i++) {
    if (i > 0) text[at++] = LINE_FEED;
    text.set(jsons[i], at);
    at += jsons[i].length;
  }
  return text;
}

/** One record holding the profiles whose UTF-8 JSON texts are `jsons`, in that order (their slots). */
export function encodeBlock(jsons: readonly Uint8Array[]): Buffer {
  return frameBlock(deflateRawSync(blockText(jsons), DEFLATE_OPTIONS));
}

/** A block record around a payload compressed with DEFLATE_OPTIONS. */
export function frameBlock(payload: Uint8Array): Buffer {
  const record = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payload.length);
  MAGIC.copy(record, 0);
  record[2] = FORMAT_BLOCK_V1;
  record.writeUInt32LE(payload.length, 3);
  record.writeUInt32LE(crc32(payload), 7);
  record.set(payload, RECORD_HEADER_BYTES);
  return record;
}

/** Checks the header against `bytes`; null when they hold exactly one intact record. */
function headerProblem(bytes: Buffer, at: number, available: number): string | null {
  if (available < RECORD_HEADER_BYTES) return `it is ${available} bytes, shorter than a record header`;
  if (bytes[at] !== MAGIC[0] || bytes[at + 1] !== MAGIC[1]) return 'no record starts there (bad magic bytes)';
  if (bytes[at + 2] !== FORMAT_BLOCK_V1 && bytes[at + 2] !== FORMAT_SINGLE_V1) return `unknown record format ${bytes[at + 2]}`;
  const length = bytes.readUInt32LE(at + 3);
  if (length > MAX_PAYLOAD || RECORD_HEADER_BYTES + length > available) {
    return `the record says ${length} payload bytes but only ${available - RECORD_HEADER_BYTES} are there (cut short by a crash?)`;
  }
  const payload = bytes.subarray(at + RECORD_HEADER_BYTES, at + RECORD_HEADER_BYTES + length);
  if (crc32(payload) !== bytes.readUInt32LE(at + 7)) return 'checksum mismatch (the bytes were damaged)';
  return null;
}

function recordLength(bytes: Buffer, at: number): number {
  return RECORD_HEADER_BYTES + bytes.readUInt32LE(at + 3);
}

/** The JSON texts of a record's profiles, by slot; a string is the problem. */
function inflate(bytes: Buffer, at: number): string[] | string {
  const payload = bytes.subarray(at + RECORD_HEADER_BYTES, at + recordLength(bytes, at));
  const inflated = inflateBounded(payload);
  if (typeof inflated === 'string') return inflated;
  const text = inflated.toString('utf8');
  return bytes[at + 2] === FORMAT_SINGLE_V1 ? [text] : text.split('\n');
}

function parseProfile(json: string): Decoded {
  const parsed = parseStoredProfile(json);
  return parsed.ok ? { ok: true, profile: fromStoredForm(parsed.profile) } : parsed;
}

/** The profile texts of one record, by slot; `bytes` must be exactly that record, as the index located it. */
export function decodeBlock(bytes: Buffer): { ok: true; jsons: string[] } | { ok: false; problem: string } {
  const problem = headerProblem(bytes, 0, bytes.length);
  if (problem) return { ok: false, problem };
  if (recordLength(bytes, 0) !== bytes.length) return { ok: false, problem: `the record is ${recordLength(bytes, 0)} bytes, the index says ${bytes.length}` };
  const jsons = inflate(bytes, 0);
  return typeof jsons === 'string' ? { ok: false, problem: jsons } : { ok: true, jsons };
}

/** The profile at `slot` of a decoded block. */
export function profileAt(jsons: readonly string[], slot: number): Decoded {
  if (slot >= jsons.length) return { ok: false, problem: `the record holds ${jsons.length} profile${jsons.length > 1 ? 's' : ''}, the index says slot ${slot}` };
  return parseProfile(jsons[slot]);
}

export interface ScannedRecord {
  offset: number;
  length: number;
  slot: number;
  profile: Profile;
}

/**
 * Every profile of every intact record in `bytes` (which start at file offset
 * `base`); bytes that are no record (a half-written tail, damage) are skipped
 * up to the next place where an intact record starts, and counted.
 */
export function scanRecords(bytes: Buffer, base: number): { records: ScannedRecord[]; skipped: number } {
  const records: ScannedRecord[] = [];
  let skipped = 0;
  let at = 0;
  while (at < bytes.length) {
    const jsons = headerProblem(bytes, at, bytes.length - at) ? null : inflate(bytes, at);
    const profiles = Array.isArray(jsons) ? jsons.map(parseProfile) : [];
    if (profiles.length > 0 && profiles.every((p) => p.ok)) {
      const length = recordLength(bytes, at);
      profiles.forEach((decoded, slot) => records.push({ offset: base + at, length, slot, profile: (decoded as { profile: Profile }).profile }));
      at += length;
      continue;
    }
    const next = bytes.indexOf(MAGIC, at + 1);
    const resume = next === -1 ? bytes.length : next;
    skipped += resume - at;
    at = resume;
  }
  return { records, skipped };
}
