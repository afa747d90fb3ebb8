import {
  BLOCK_BYTES,
  BLOCK_PROFILES,
  blockSlots,
  compressionFor,
  compressSlots,
  splitLines,
  splitSlots,
} from './record-codec.js';
import { inflateBounded } from './stored-profile-reader.js';

/**
 * The bodies of a batch's profiles as rows of the blocks table: the stored entries (a stored record
 * or a profile's JSON, stored-profile-reader.ts) of up to BLOCK_PROFILES profiles (BLOCK_BYTES, unless
 * one profile passes it alone), framed by their lengths (blockSlots), compressed as one stream
 * as the embedded store's segments hold them (compressionFor). A profile row points at its
 * block and line (slot). The database then takes a tenth of the bytes per profile, which is most
 * of what an insert costs it, and the profiles of one server (its configuration panel the same in
 * each) compress against each other; one deflate per block costs this thread a fraction of what
 * one per profile would.
 *
 * A block's first byte names its format: 3, entries framed by their lengths, brotli; 2, the same,
 * deflate-raw with DICTIONARY_V1; 1, profile JSON texts one per line, as blocks written before
 * records hold.
 */
const FORMAT_DEFLATE_V1 = 1;
const FORMAT_DEFLATE_V2 = 2;
const FORMAT_BROTLI = 3;

export interface PackedBatch {
  /** each block's bytes, as stored */
  blocks: Buffer[];
  /** the newest profile time in each block: a block older than every stored profile has none left */
  newest: number[];
  /** for each row, the index of its block in `blocks` (1-based, as SQL's ordinality) and its line there */
  blockOf: number[];
  slotOf: number[];
}

/** Packs the bodies (stored entries) of rows whose times are `times` into blocks, in order. */
export function packBlocks(bodies: readonly Uint8Array[], times: readonly number[]): PackedBatch {
  const packed: PackedBatch = { blocks: [], newest: [], blockOf: [], slotOf: [] };
  let start = 0;
  while (start < bodies.length) {
    let end = start + 1;
    let bytes = bodies[start].length;
    while (end < bodies.length && end - start < BLOCK_PROFILES && bytes + bodies[end].length <= BLOCK_BYTES)
      bytes += bodies[end++].length;
    const compression = compressionFor(end - start);
    const payload = compressSlots(blockSlots(bodies.slice(start, end)), compression);
    const block = Buffer.allocUnsafe(1 + payload.length);
    block[0] = compression === 'brotli' ? FORMAT_BROTLI : FORMAT_DEFLATE_V2;
    block.set(payload, 1);
    packed.blocks.push(block);
    let newest = -Infinity;
    for (let i = start; i < end; i++) {
      packed.blockOf.push(packed.blocks.length);
      packed.slotOf.push(i - start);
      newest = Math.max(newest, times[i]);
    }
    packed.newest.push(newest);
    start = end;
  }
  return packed;
}

/** The body at `slot` of a stored block; throws an Error saying what is wrong with it. */
export function bodyAt(block: Buffer, slot: number): Buffer {
  const format = block[0];
  if (block.length === 0 || (format !== FORMAT_DEFLATE_V1 && format !== FORMAT_DEFLATE_V2 && format !== FORMAT_BROTLI))
    throw new Error(`unknown block format ${format}`);
  const inflated = inflateBounded(block.subarray(1), format === FORMAT_BROTLI ? 'brotli' : 'deflate');
  if (typeof inflated === 'string') throw new Error(inflated);
  const bodies = format === FORMAT_DEFLATE_V1 ? splitLines(inflated) : splitSlots(inflated);
  if (typeof bodies === 'string') throw new Error(bodies);
  if (slot >= bodies.length)
    throw new Error(
      `its block holds ${bodies.length} profile${bodies.length === 1 ? '' : 's'}, the row says line ${slot + 1}`,
    );
  return bodies[slot];
}
