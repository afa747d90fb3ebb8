/**
 * A stored entry kept as its change from an earlier entry of its block (record-codec.ts), when the
 * writer knows where the two may differ: the same request again, whose record differs from the one
 * before only by its token and its clock readings (handoff/record-shapes.ts). Such an entry takes a
 * hundred-odd bytes instead of some thousands, and its block stores it as it is: compressing the few
 * bytes that change from a request to the next cost more than compressing the rest of the block.
 *
 * The store knows nothing of what the bytes mean: a writer names the float64s (little-endian) that
 * may differ and the runs of other bytes that may, and vouches that the entry is the base elsewhere.
 * A float64 is written in millionths (a clock reading in ms is made from a count of ns), as how its
 * step from the float before differs from the base's; else by its bit pattern; else as its 8 bytes.
 * Each gives it back exactly: nothing is ever rounded.
 *
 * Layout (varints of up to 53 bits, 7 bits a byte, low bits first):
 *   varint  the base's slot in the block (before this one)
 *   varint  n, then n × (varint: the float's offset from the one before, or from 0;
 *                        varint: 4 × zigzag(d), where d is, in millionths, the float's step from
 *                        the float before it written so, less the base's step between the same two
 *                        (from 0 for the first); or 4 × zigzag(p) + 2, where p is how much more its
 *                        bit pattern is above the base's than the float before it written so was
 *                        (from 0); or 1 then its 8 bytes)
 *   varint  m, then m × (varint offset, varint length, the bytes)
 */

/** Where an entry may differ from the earlier entry `base` of the same length. */
export interface Likeness {
  base: Uint8Array;
  /** added to every offset below: where the part they are counted from begins in the entry */
  at: number;
  /** float64s, little-endian, in increasing order */
  floats: readonly number[];
  /** other runs of bytes, as offset, length, offset, length… */
  runs: readonly number[];
}

const MILLION = 1e6;
/** where patches are written, grown as needed; each patch is copied out of it */
let out = Buffer.alloc(4 * 1024);

/** Writes `value` (a whole number from 0 to 2^53) into `bytes` at `at` as a varint; returns where it ends. */
function varint(bytes: Uint8Array, at: number, value: number): number {
  let n = value;
  while (n >= 0x80000000) {
    bytes[at++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  while (n >= 0x80) {
    bytes[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  bytes[at++] = n;
  return at;
}

/** A float64 in millionths, when that is a whole number that gives it back exactly; else NaN. */
function millionths(value: number): number {
  const whole = Math.round(value * MILLION);
  if (whole / MILLION !== value || !Number.isSafeInteger(whole)) return Number.NaN;
  // -0 is no whole number of millionths: 0 would give back +0
  return whole === 0 && 1 / value < 0 ? Number.NaN : whole;
}

const TWO_32 = 2 ** 32;
/** how far apart two float64s' bit patterns may be: the difference is then a safe integer */
const MAX_PATTERN_STEP = 2 ** 48;

/** The difference of two float64s' bit patterns (as unsigned 64-bit numbers), exact; NaN when it is too large. */
function patternStep(view: DataView, baseView: DataView, offset: number): number {
  const high = view.getUint32(offset + 4, true) - baseView.getUint32(offset + 4, true);
  if (high > 0xffff || high < -0xffff) return Number.NaN;
  return high * TWO_32 + (view.getUint32(offset, true) - baseView.getUint32(offset, true));
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/** The most bytes a varint takes (53 bits, 7 a byte). */
const VARINT_BYTES = 8;

/**
 * `entry` written as its change from `like.base` (at slot `baseSlot`), or null when the two differ in
 * length or `like` names places past its end. The writer vouches that they differ nowhere else (the
 * profiler worker compared them, handoff/record-shapes.ts); tests read back every entry so written.
 */
export function encodePatch(entry: Uint8Array, like: Likeness, baseSlot: number): Buffer | null {
  const { base, floats, runs } = like;
  const length = entry.length;
  if (base.length !== length) return null;
  // room for the longest patch these places make: every float as its 8 bytes
  let bound = 3 * VARINT_BYTES + floats.length * (VARINT_BYTES + 9);
  for (let i = 1; i < runs.length; i += 2) bound += 2 * VARINT_BYTES + runs[i];
  if (out.length < bound) out = Buffer.alloc(Math.max(out.length * 2, bound));
  const bytes = out;
  const entryView = new DataView(entry.buffer, entry.byteOffset, length);
  const baseView = new DataView(base.buffer, base.byteOffset, length);
  let at = varint(bytes, 0, baseSlot);
  at = varint(bytes, at, floats.length);
  let previous = 0;
  // A reading is written as how much more its step from the reading before is than in the base (a
  // listener that took 1.2 µs in one request takes about as long in the next), in millionths; a
  // float64 not made of millionths (a time of day in ms), as how much more its bit pattern moved than
  // the one before that moved so.
  let lastValue = 0;
  let lastBase = 0;
  let lastStep = 0;
  for (let i = 0; i < floats.length; i++) {
    const offset = like.at + floats[i];
    if (offset < previous || offset + 8 > length) return null;
    at = varint(bytes, at, offset - previous);
    previous = offset;
    const value = millionths(entryView.getFloat64(offset, true));
    const was = millionths(baseView.getFloat64(offset, true));
    const change = value - lastValue - (was - lastBase);
    if (Number.isSafeInteger(change) && Math.abs(change) < MAX_PATTERN_STEP) {
      at = varint(bytes, at, zigzag(change) * 4);
      lastValue = value;
      lastBase = was;
      continue;
    }
    const step = patternStep(entryView, baseView, offset);
    if (step === step && Math.abs(step - lastStep) < MAX_PATTERN_STEP) {
      at = varint(bytes, at, zigzag(step - lastStep) * 4 + 2);
      lastStep = step;
      continue;
    }
    bytes[at++] = 1;
    bytes.set(entry.subarray(offset, offset + 8), at);
    at += 8;
  }
  at = varint(bytes, at, runs.length / 2);
  for (let i = 0; i < runs.length; i += 2) {
    const offset = like.at + runs[i];
    const count = runs[i + 1];
    if (offset + count > length) return null;
    at = varint(bytes, at, offset);
    at = varint(bytes, at, count);
    bytes.set(entry.subarray(offset, offset + count), at);
    at += count;
  }
  return Buffer.from(bytes.subarray(0, at));
}

/** Reads a patch's varints, each within the patch. */
class PatchReader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}

  varint(): number {
    let value = 0;
    let weight = 1;
    for (;;) {
      if (this.at >= this.bytes.length) throw new RangeError('the patch ends in the middle of a number');
      const byte = this.bytes[this.at++];
      value += (byte & 0x7f) * weight;
      if (byte < 0x80) return value;
      weight *= 0x80;
      if (weight > 2 ** 56) throw new RangeError('a number of the patch is too long');
    }
  }
}

/**
 * The entry `patch` stands for, made from the entries of its block before it (`earlier`); a string
 * says what is wrong with it.
 */
export function applyPatch(patch: Uint8Array, earlier: readonly Uint8Array[]): Buffer | string {
  const r = new PatchReader(patch);
  try {
    const baseSlot = r.varint();
    if (baseSlot >= earlier.length)
      return `it is written as a change from entry ${baseSlot + 1}, which is not before it`;
    const entry = Buffer.from(earlier[baseSlot]);
    const view = new DataView(entry.buffer, entry.byteOffset, entry.length);
    let offset = 0;
    let lastValue = 0;
    let lastBase = 0;
    let lastStep = 0;
    for (let n = r.varint(); n > 0; n--) {
      offset += r.varint();
      if (offset + 8 > entry.length) return 'a number it changes lies past its end';
      const kind = r.varint();
      if (kind === 1) {
        if (r.at + 8 > patch.length) return 'it ends in the middle of a number';
        entry.set(patch.subarray(r.at, r.at + 8), offset);
        r.at += 8;
      } else if (kind % 4 === 0) {
        const was = millionths(view.getFloat64(offset, true));
        if (was !== was) return 'it changes a number by millionths that is not made of them';
        const value = unzigzag(kind / 4) + lastValue + (was - lastBase);
        view.setFloat64(offset, value / MILLION, true);
        lastValue = value;
        lastBase = was;
      } else if (kind % 4 === 2) {
        const step = unzigzag((kind - 2) / 4) + lastStep;
        lastStep = step;
        const high = Math.floor(step / TWO_32);
        let low = view.getUint32(offset, true) + (step - high * TWO_32);
        const carry = low >= TWO_32 ? 1 : 0;
        low -= carry * TWO_32;
        const top = view.getUint32(offset + 4, true) + high + carry;
        if (top < 0 || top >= TWO_32) return 'it moves a number past what 64 bits hold';
        view.setUint32(offset, low, true);
        view.setUint32(offset + 4, top, true);
      } else return `it holds an unknown kind of change (${kind})`;
    }
    for (let n = r.varint(); n > 0; n--) {
      const start = r.varint();
      const bytes = r.varint();
      if (start + bytes > entry.length || r.at + bytes > patch.length)
        return 'a run of bytes it changes lies past its end';
      entry.set(patch.subarray(r.at, r.at + bytes), start);
      r.at += bytes;
    }
    if (r.at !== patch.length) return 'it holds bytes past its changes';
    return entry;
  } catch (error) {
    return (error as Error).message;
  }
}
