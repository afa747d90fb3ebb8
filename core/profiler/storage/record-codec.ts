import { brotliCompressSync, constants, crc32, deflateRawSync } from 'node:zlib';
import type { Profile } from '../profile.js';
import { DICTIONARY_V1 } from './compression-dictionary.js';
import { applyPatch, encodePatch, type Likeness } from './entry-patch.js';
import { type BlockCompression, inflateBounded, readStoredEntry } from './stored-profile-reader.js';

/**
 * A block of profiles in a segment: an 11-byte header, then the block's entries
 * (blockSlots: each a stored record or a profile's JSON, stored-profile-reader.ts),
 * compressed as one stream (compressionFor). One stream per block, not per
 * profile: a stream's set-up costs more than compressing one record, and the
 * records of one block share most of their bytes. A profile is found by its
 * block (offset, length) and its line (slot).
 *
 *   0  2  magic "ak"
 *   2  1  format (6: a block of entries framed by their lengths, some of them written as their
 *                 change from an entry before them (entry-patch.ts): uint32 LE n, then n bytes, the
 *                 framing and the entries kept whole (patchedSlots), brotli, then the patches as they
 *                 are; 5: the same, its n bytes deflate-raw with dictionary v1;
 *                 4: a block of entries framed by their lengths, brotli;
 *                 3: the same, deflate-raw with dictionary v1;
 *                 2: a block of profile JSON texts, one per line, as stores written before records hold;
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
const FORMAT_BLOCK_V2 = 3;
const FORMAT_BLOCK_V3 = 4;
const FORMAT_PATCHED_DEFLATE = 5;
const FORMAT_PATCHED_BROTLI = 6;
/** the bit of a slot's length that says the slot is a patch (entry-patch.ts), in a block of format 5 or 6 */
const PATCH_BIT = 0x80000000;
const MAX_PAYLOAD = 64 * 1024 * 1024;
/**
 * Entries kept whole per block at most, and their bytes (one entry may pass it): a read inflates its
 * whole block. A block of repeated requests also holds entries written as their change from an earlier
 * one of it (patchedSlots), which it does not compress: up to BLOCK_SLOTS entries in all, as a read
 * makes each of them again from the one before (a few µs each).
 */
export const BLOCK_PROFILES = 32;
export const BLOCK_BYTES = 64 * 1024;
export const BLOCK_SLOTS = 128;

export type Decoded = { ok: true; profile: Profile } | { ok: false; problem: string };

/**
 * How a block is compressed, in this thread or in a worker (which receives COMPRESSION_OPTIONS as
 * they are). A block of many records, as a server under load writes them, takes brotli at quality
 * 1: the bytes deflate takes, for less than half its CPU (the records share most of their bytes).
 * A block of few, as a developer's requests one at a time write them, takes deflate with
 * DICTIONARY_V1, whose fragments a lone record holds: a fifth fewer bytes, where CPU does not count.
 */
export function compressionFor(entries: number): BlockCompression {
  return entries >= BROTLI_FROM_ENTRIES ? 'brotli' : 'deflate';
}

const BROTLI_FROM_ENTRIES = 16;

export const COMPRESSION_OPTIONS = {
  brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 18 } },
  deflate: { level: 3, dictionary: DICTIONARY_V1 },
};

/** A block's slots (blockSlots), compressed as `compression` says. */
export function compressSlots(slots: Buffer, compression: BlockCompression): Buffer {
  return compression === 'brotli'
    ? brotliCompressSync(slots, COMPRESSION_OPTIONS.brotli)
    : deflateRawSync(slots, COMPRESSION_OPTIONS.deflate);
}

/** JSON.stringify never writes a raw line feed, so one joined the profiles of a block of format 2 (\n). */
const LINE_FEED = 0x0a;

/**
 * A block's entries framed by their lengths, in a buffer of its own (not a slice of Node's shared
 * pool), so that it can be handed to a worker thread whole: uint32 LE count, count × uint32 LE
 * length, then the entries one after another.
 */
export function blockSlots(entries: readonly Uint8Array[]): Buffer {
  let size = 4 + 4 * entries.length;
  for (const entry of entries) size += entry.length;
  const slots = Buffer.allocUnsafeSlow(size);
  slots.writeUInt32LE(entries.length, 0);
  let at = 4 + 4 * entries.length;
  for (let i = 0; i < entries.length; i++) {
    slots.writeUInt32LE(entries[i].length, 4 + 4 * i);
    slots.set(entries[i], at);
    at += entries[i].length;
  }
  return slots;
}

/** A block's slots with some entries written as patches (entry-patch.ts), which are stored apart, as they are. */
export interface PatchedSlots {
  /** blockSlots' framing of the block: each patch's length marked with PATCH_BIT, its bytes left out */
  slots: Buffer;
  /** the patches, in slot order */
  patches: Buffer[];
  /** entries kept whole */
  whole: number;
}

/**
 * The block of `entries` with each entry that `likes` says is like an earlier entry of the same block
 * written as its change from it (entry-patch.ts); null when no entry could be written so.
 */
export function patchedSlots(
  entries: readonly Uint8Array[],
  likes: readonly (Likeness | undefined)[],
): PatchedSlots | null {
  const slotOf = new Map<Uint8Array, number>();
  const patches: (Buffer | null)[] = [];
  let size = 4 + 4 * entries.length;
  let whole = 0;
  for (let i = 0; i < entries.length; i++) {
    const like = likes[i];
    const baseSlot = like === undefined ? undefined : slotOf.get(like.base);
    const patch = baseSlot === undefined ? null : encodePatch(entries[i], like!, baseSlot);
    slotOf.set(entries[i], i);
    patches.push(patch);
    if (patch === null) {
      size += entries[i].length;
      whole++;
    }
  }
  if (whole === entries.length) return null;
  const slots = Buffer.allocUnsafeSlow(size);
  slots.writeUInt32LE(entries.length, 0);
  let at = 4 + 4 * entries.length;
  for (let i = 0; i < entries.length; i++) {
    const patch = patches[i];
    if (patch !== null) {
      slots.writeUInt32LE((patch.length | PATCH_BIT) >>> 0, 4 + 4 * i);
      continue;
    }
    slots.writeUInt32LE(entries[i].length, 4 + 4 * i);
    slots.set(entries[i], at);
    at += entries[i].length;
  }
  return { slots, patches: patches.filter((patch) => patch !== null), whole };
}

/**
 * The entries of what blockSlots made, as views of it; with `patches` (a block of format 5 or 6), the
 * slots of what patchedSlots made, each patch read from `patches` in turn and made again into its
 * entry (a buffer of its own). A string says what is wrong with them.
 */
export function splitSlots(slots: Buffer, patches?: Buffer): Buffer[] | string {
  if (slots.length < 4) return 'its block is shorter than its count of entries';
  const count = slots.readUInt32LE(0);
  if (4 + 4 * count > slots.length) return `its block says ${count} entries but is ${slots.length} bytes`;
  const entries: Buffer[] = [];
  let at = 4 + 4 * count;
  let patchAt = 0;
  for (let i = 0; i < count; i++) {
    const slot = slots.readUInt32LE(4 + 4 * i);
    if (patches !== undefined && slot >= PATCH_BIT) {
      const length = slot - PATCH_BIT;
      if (patchAt + length > patches.length) return `its block's entry ${i + 1} runs past its end`;
      const entry = applyPatch(patches.subarray(patchAt, patchAt + length), entries);
      if (typeof entry === 'string') return `its block's entry ${i + 1} cannot be read: ${entry}`;
      entries.push(entry);
      patchAt += length;
      continue;
    }
    if (at + slot > slots.length) return `its block's entry ${i + 1} runs past its end`;
    entries.push(slots.subarray(at, at + slot));
    at += slot;
  }
  if (patches !== undefined && patchAt !== patches.length) return 'its block holds bytes past its entries';
  return entries;
}

/** The lines of a block of format 2 (profile JSON texts), as views of it. */
export function splitLines(text: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = text.indexOf(LINE_FEED); end !== -1; end = text.indexOf(LINE_FEED, start)) {
    lines.push(text.subarray(start, end));
    start = end + 1;
  }
  lines.push(text.subarray(start));
  return lines;
}

/**
 * One record holding the stored entries `entries`, in that order (their slots); an entry `likes`
 * says is like an earlier one of the block is written as its change from it (patchedSlots).
 */
export function encodeBlock(entries: readonly Uint8Array[], likes?: readonly (Likeness | undefined)[]): Buffer {
  const patched = likes === undefined ? null : patchedSlots(entries, likes);
  if (patched === null) {
    const compression = compressionFor(entries.length);
    return frameBlock(compressSlots(blockSlots(entries), compression), compression);
  }
  // brotli whatever the count: deflate's dictionary costs more to set up than compressing an entry or two
  const compression: BlockCompression = 'brotli';
  const head = compressSlots(patched.slots, compression);
  const payload = Buffer.concat([Buffer.alloc(4), head, ...patched.patches]);
  payload.writeUInt32LE(head.length, 0);
  return frameBlock(payload, compression, true);
}

/** A block record around a payload compressed as `compression` says (compressSlots); `patched`: encodeBlock's payload of patchedSlots. */
export function frameBlock(payload: Uint8Array, compression: BlockCompression, patched = false): Buffer {
  const record = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payload.length);
  MAGIC.copy(record, 0);
  record[2] = patched
    ? compression === 'brotli'
      ? FORMAT_PATCHED_BROTLI
      : FORMAT_PATCHED_DEFLATE
    : compression === 'brotli'
      ? FORMAT_BLOCK_V3
      : FORMAT_BLOCK_V2;
  record.writeUInt32LE(payload.length, 3);
  record.writeUInt32LE(crc32(payload), 7);
  record.set(payload, RECORD_HEADER_BYTES);
  return record;
}

/** Checks the header against `bytes`; null when they hold exactly one intact record. */
function headerProblem(bytes: Buffer, at: number, available: number): string | null {
  if (available < RECORD_HEADER_BYTES) return `it is ${available} bytes, shorter than a record header`;
  if (bytes[at] !== MAGIC[0] || bytes[at + 1] !== MAGIC[1]) return 'no record starts there (bad magic bytes)';
  if (!FORMATS.has(bytes[at + 2])) return `unknown record format ${bytes[at + 2]}`;
  const length = bytes.readUInt32LE(at + 3);
  if (length > MAX_PAYLOAD || RECORD_HEADER_BYTES + length > available) {
    return `the record says ${length} payload bytes but only ${available - RECORD_HEADER_BYTES} are there (cut short by a crash?)`;
  }
  const payload = bytes.subarray(at + RECORD_HEADER_BYTES, at + RECORD_HEADER_BYTES + length);
  if (crc32(payload) !== bytes.readUInt32LE(at + 7)) return 'checksum mismatch (the bytes were damaged)';
  return null;
}

const FORMATS = new Set([
  FORMAT_PATCHED_BROTLI,
  FORMAT_PATCHED_DEFLATE,
  FORMAT_BLOCK_V3,
  FORMAT_BLOCK_V2,
  FORMAT_BLOCK_V1,
  FORMAT_SINGLE_V1,
]);

function recordLength(bytes: Buffer, at: number): number {
  return RECORD_HEADER_BYTES + bytes.readUInt32LE(at + 3);
}

/** The stored entries of a record, by slot; a string is the problem. */
function inflate(bytes: Buffer, at: number): Buffer[] | string {
  const payload = bytes.subarray(at + RECORD_HEADER_BYTES, at + recordLength(bytes, at));
  const format = bytes[at + 2];
  const brotli = format === FORMAT_BLOCK_V3 || format === FORMAT_PATCHED_BROTLI;
  if (format === FORMAT_PATCHED_BROTLI || format === FORMAT_PATCHED_DEFLATE) {
    const headLength = payload.length < 4 ? -1 : payload.readUInt32LE(0);
    if (headLength < 0 || 4 + headLength > payload.length)
      return 'its block is shorter than the length of its entries kept whole says';
    const head = inflateBounded(payload.subarray(4, 4 + headLength), brotli ? 'brotli' : 'deflate');
    return typeof head === 'string' ? head : splitSlots(head, payload.subarray(4 + headLength));
  }
  const inflated = inflateBounded(payload, brotli ? 'brotli' : 'deflate');
  if (typeof inflated === 'string') return inflated;
  return format === FORMAT_BLOCK_V3 || format === FORMAT_BLOCK_V2
    ? splitSlots(inflated)
    : format === FORMAT_SINGLE_V1
      ? [inflated]
      : splitLines(inflated);
}

/** The stored entries of one record, by slot; `bytes` must be exactly that record, as the index located it. */
export function decodeBlock(bytes: Buffer): { ok: true; entries: Buffer[] } | { ok: false; problem: string } {
  const problem = headerProblem(bytes, 0, bytes.length);
  if (problem) return { ok: false, problem };
  if (recordLength(bytes, 0) !== bytes.length)
    return { ok: false, problem: `the record is ${recordLength(bytes, 0)} bytes, the index says ${bytes.length}` };
  const entries = inflate(bytes, 0);
  return typeof entries === 'string' ? { ok: false, problem: entries } : { ok: true, entries };
}

/** The profile at `slot` of a decoded block. */
export function profileAt(entries: readonly Buffer[], slot: number): Decoded {
  if (slot >= entries.length)
    return {
      ok: false,
      problem: `the record holds ${entries.length} profile${entries.length > 1 ? 's' : ''}, the index says slot ${slot}`,
    };
  return readStoredEntry(entries[slot]);
}

export interface ScannedRecord {
  offset: number;
  length: number;
  slot: number;
  profile: Profile;
  /** the entry as stored (a stored record's bytes, or the profile's JSON) */
  stored: Buffer;
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
    const entries = headerProblem(bytes, at, bytes.length - at) ? null : inflate(bytes, at);
    const profiles = Array.isArray(entries) ? entries.map(readStoredEntry) : [];
    if (profiles.length > 0 && profiles.every((p) => p.ok)) {
      const length = recordLength(bytes, at);
      profiles.forEach((decoded, slot) =>
        records.push({
          offset: base + at,
          length,
          slot,
          profile: (decoded as { profile: Profile }).profile,
          stored: (entries as Buffer[])[slot],
        }),
      );
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
