import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyPatch, encodePatch, type Likeness } from '../../../../core/profiler/storage/entry-patch.js';
import {
  compressSlots,
  decodeBlock,
  encodeBlock,
  frameBlock,
  patchedSlots,
} from '../../../../core/profiler/storage/record-codec.js';

const test = suite(
  'an entry kept as its change from an earlier entry of its block: float64s by their steps, other bytes as they are',
);

/** An entry of `count` float64s from offset 16, with a token of 6 bytes at offset 2 and fixed bytes around. */
function entryOf(values: readonly number[], token: string): Buffer {
  const entry = Buffer.alloc(16 + values.length * 8 + 5, 0x5a);
  entry.write(token, 2, 'latin1');
  values.forEach((value, i) => entry.writeDoubleLE(value, 16 + i * 8));
  return entry;
}

const likeAt = (base: Buffer, count: number): Likeness => ({
  base,
  at: 10,
  floats: Array.from({ length: count }, (_, i) => 6 + i * 8),
  runs: [-8, 6],
});

test('when clock readings made of ns change, then they are written in a few bytes each and read back exactly', () => {
  const ns = (n: number) => n / 1e6;
  const base = entryOf([ns(1_234_567_891), ns(1_234_569_001), ns(1_234_571_337), 0.5, 1_000_000], 'a1b2c3');
  const entry = entryOf([ns(9_876_543_210), ns(9_876_544_333), ns(9_876_546_600), 0.75, 1_004_096], 'ffee01');
  const patch = encodePatch(entry, likeAt(base, 5), 0);
  assert.ok(patch);
  assert.ok(patch.length < 5 * 8 + 6, `${patch.length} bytes`);
  const back = applyPatch(patch, [base]);
  assert.ok(Buffer.isBuffer(back) && back.equals(entry));
});

test('when a float64 is no whole number of millionths (NaN, -0, a third, a huge one), then its 8 bytes are kept, and the others still read back', () => {
  const base = entryOf([1, 2, 3, 4, 5, 6], 'a1b2c3');
  const entry = entryOf([Number.NaN, -0, 1 / 3, 1e300, 5.000001, Number.POSITIVE_INFINITY], 'a1b2c4');
  const patch = encodePatch(entry, likeAt(base, 6), 0);
  assert.ok(patch);
  const back = applyPatch(patch, [base]);
  assert.ok(Buffer.isBuffer(back) && back.equals(entry));
  for (const values of [
    [0.1, 0.2, 0.30000000000000004, 7, 8, 9],
    [-1.5, 2 ** 52, -(2 ** 40), 0, 1e-7, 123.456789],
  ]) {
    const other = entryOf(values, 'c0ffee');
    const patched = encodePatch(other, likeAt(base, 6), 0);
    const read = patched && applyPatch(patched, [base]);
    assert.ok(Buffer.isBuffer(read) && read.equals(other), values.join(', '));
  }
});

test('when the entries differ in length, or a place lies past the end, then the entry is kept whole', () => {
  const base = entryOf([1, 2], 'a1b2c3');
  assert.is(encodePatch(entryOf([1, 2, 3], 'a1b2c3'), likeAt(base, 2), 0), null);
  assert.is(encodePatch(entryOf([1, 3], 'a1b2c3'), { ...likeAt(base, 2), floats: [6, 6 + 8 * 5] }, 0), null);
});

test('when a patch is damaged (cut short, its base not before it, a place past the end), then it says so and throws nothing', () => {
  const base = entryOf([1, 2, 3], 'a1b2c3');
  const patch = encodePatch(entryOf([1.5, 2.5, 3.5], 'a1b2c4'), likeAt(base, 3), 0)!;
  assert.match(String(applyPatch(patch, [])), /entry 1, which is not before it/);
  for (let cut = 1; cut < patch.length; cut++) assert.type(applyPatch(patch.subarray(0, cut), [base]), 'string');
  assert.match(String(applyPatch(Buffer.concat([patch, Buffer.from([0])]), [base])), /bytes past its changes/);
  assert.match(String(applyPatch(Buffer.from([0, 1, 200, 1, 0]), [base])), /past its end/);
  for (let i = 0; i < 500; i++) {
    const damaged = Buffer.from(patch);
    damaged[i % damaged.length] ^= 1 + (i % 255);
    const read = applyPatch(damaged, [base]);
    assert.ok(typeof read === 'string' || read.length === base.length);
  }
});

test('when a block holds patches, then they are stored apart, as they are, and a block planted with its parts out of line says what is wrong', () => {
  const entries = Array.from({ length: 10 }, (_, i) =>
    entryOf([i / 1e3, 2 + i / 1e6, 1.7e12 + i / 7], `tok${i}00`.slice(0, 6)),
  );
  const likes = entries.map((entry, i) => (i === 0 ? undefined : likeAt(entries[i - 1], 3)));
  const block = encodeBlock(entries, likes);
  assert.is(block[2], 6);
  const decoded = decodeBlock(block);
  assert.ok(decoded.ok && decoded.entries.every((entry, i) => entry.equals(entries[i])));
  const { slots, patches } = patchedSlots(entries, likes)!;
  assert.is(patches.length, 9);
  const head = compressSlots(slots, 'brotli');
  const planted = (payload: Buffer) => {
    const read = decodeBlock(frameBlock(payload, 'brotli', true));
    return read.ok ? 'read' : read.problem;
  };
  const lengthOf = (n: number) => Buffer.from(Uint32Array.of(n).buffer);
  assert.is(planted(Buffer.concat([lengthOf(head.length), head, ...patches])), 'read');
  assert.match(
    planted(Buffer.concat([lengthOf(head.length + 999), head])),
    /shorter than the length of its entries kept whole/,
  );
  assert.match(
    planted(Buffer.concat([lengthOf(head.length), head, ...patches, Buffer.from([7])])),
    /bytes past its entries/,
  );
  assert.match(
    planted(Buffer.concat([lengthOf(head.length), head, ...patches.slice(1)])),
    /entry \d+ (runs past its end|cannot be read)/,
  );
  assert.match(planted(Buffer.from([1, 2])), /shorter than the length/);
});

test.run();
