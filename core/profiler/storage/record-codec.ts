import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Profile } from '../profile.js';
import { DICTIONARY_V1 } from './compression-dictionary.js';

/**
 * One profile in a segment: an 11-byte header, then the profile JSON
 * deflated with DICTIONARY_V1.
 *
 *   0  2  magic "ak"
 *   2  1  format (1: deflate-raw, dictionary v1)
 *   3  4  payload length, uint32 LE
 *   7  4  CRC-32 of the payload, uint32 LE
 *
 * A record cut short by a crash fails the length check, damaged bytes fail the
 * CRC; either way the record is never decoded as a whole one.
 */
export const RECORD_HEADER_BYTES = 11;
const MAGIC = Buffer.from('ak', 'latin1');
const FORMAT_DEFLATE_V1 = 1;
const MAX_PAYLOAD = 64 * 1024 * 1024;
const LEVEL = 6;

export type Decoded = { ok: true; profile: Profile } | { ok: false; problem: string };

/** How payloads are compressed, in this thread or in a worker: the worker receives these options as they are. */
export const DEFLATE_OPTIONS = { level: LEVEL, dictionary: DICTIONARY_V1 };

export function encodeRecord(json: string): Buffer {
  return frameRecord(deflateRawSync(json, DEFLATE_OPTIONS));
}

/** A record around a payload compressed with DEFLATE_OPTIONS. */
export function frameRecord(payload: Uint8Array): Buffer {
  const record = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payload.length);
  MAGIC.copy(record, 0);
  record[2] = FORMAT_DEFLATE_V1;
  record.writeUInt32LE(payload.length, 3);
  record.writeUInt32LE(crc32(payload), 7);
  record.set(payload, RECORD_HEADER_BYTES);
  return record;
}

/** Checks the header against `bytes`; null when they hold exactly one intact record. */
function headerProblem(bytes: Buffer, at: number, available: number): string | null {
  if (available < RECORD_HEADER_BYTES) return `it is ${available} bytes, shorter than a record header`;
  if (bytes[at] !== MAGIC[0] || bytes[at + 1] !== MAGIC[1]) return 'no record starts there (bad magic bytes)';
  if (bytes[at + 2] !== FORMAT_DEFLATE_V1) return `unknown record format ${bytes[at + 2]}`;
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

function inflate(payload: Buffer): Decoded {
  let json: string;
  try {
    json = inflateRawSync(payload, { dictionary: DICTIONARY_V1 }).toString('utf8');
  } catch (error) {
    return { ok: false, problem: `it cannot be decompressed (${(error as Error).message})` };
  }
  let profile: unknown;
  try {
    profile = JSON.parse(json);
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON (${(error as Error).message})` };
  }
  if (!isProfileLike(profile)) return { ok: false, problem: 'it does not hold a profile' };
  return { ok: true, profile };
}

function isProfileLike(value: unknown): value is Profile {
  const p = value as Profile;
  return typeof p === 'object' && p !== null && typeof p.token === 'string' && typeof p.status === 'number'
    && typeof p.time === 'number' && typeof p.url === 'string' && typeof p.collectors === 'object';
}

/** `bytes` must be exactly one record, as the index located it. */
export function decodeRecord(bytes: Buffer): Decoded {
  const problem = headerProblem(bytes, 0, bytes.length);
  if (problem) return { ok: false, problem };
  if (recordLength(bytes, 0) !== bytes.length) return { ok: false, problem: `the record is ${recordLength(bytes, 0)} bytes, the index says ${bytes.length}` };
  return inflate(bytes.subarray(RECORD_HEADER_BYTES));
}

export interface ScannedRecord {
  offset: number;
  length: number;
  profile: Profile;
}

/**
 * Every intact record in `bytes` (which start at file offset `base`); bytes
 * that are no record (a half-written tail, damage) are skipped up to the next
 * place where an intact record starts, and counted.
 */
export function scanRecords(bytes: Buffer, base: number): { records: ScannedRecord[]; skipped: number } {
  const records: ScannedRecord[] = [];
  let skipped = 0;
  let at = 0;
  while (at < bytes.length) {
    const problem = headerProblem(bytes, at, bytes.length - at);
    const decoded = problem ? null : inflate(bytes.subarray(at + RECORD_HEADER_BYTES, at + recordLength(bytes, at)));
    if (decoded?.ok) {
      const length = recordLength(bytes, at);
      records.push({ offset: base + at, length, profile: decoded.profile });
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
