import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TokenBits, tokenNumber } from '../../../../core/profiler/storage/token-bits.js';

const test = suite('TokenBits');

test('when a token is 6 lowercase hexadecimal digits, then its number is its value; otherwise -1', () => {
  assert.is(tokenNumber('000000'), 0);
  assert.is(tokenNumber('ffffff'), 0xffffff);
  assert.is(tokenNumber('3f2a1c'), 0x3f2a1c);
  for (const bad of ['', '3f2a1', '3f2a1c0', '3F2A1C', '3f2a1g', '12 456', '../../', '3f2a1\u0660'])
    assert.is(tokenNumber(bad), -1, JSON.stringify(bad));
});

test('when tokens are added, deleted and cleared, then has() answers as a set of them would', () => {
  const bits = new TokenBits();
  const reference = new Set<number>();
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) % (1 << 24);
  // Past 4,096 tokens, clear() empties the whole table instead of the words it knows.
  for (const count of [10, 5000]) {
    for (let i = 0; i < count; i++) {
      const n = i % 3 === 0 && i > 0 ? [...reference][0] : next();
      if (i % 5 === 4) {
        bits.delete(n);
        reference.delete(n);
      } else {
        bits.add(n);
        reference.add(n);
      }
    }
    assert.is(bits.size, reference.size);
    for (const n of reference) assert.ok(bits.has(n));
    for (let i = 0; i < 2000; i++) {
      const n = next();
      assert.is(bits.has(n), reference.has(n));
    }
    assert.ok(bits.has(0) === reference.has(0) && bits.has(0xffffff) === reference.has(0xffffff));
    const held = [...reference];
    bits.clear();
    reference.clear();
    assert.is(bits.size, 0);
    for (const n of held) assert.not.ok(bits.has(n), `${n} is gone after clear()`);
  }
});

test('when counting the tokens in a range, then the count is the one a walk through the set gives, at word edges too', () => {
  const bits = new TokenBits();
  const held = [0, 1, 31, 32, 33, 63, 64, 100, 1000, 0xa00000, 0xa0001f, 0xafffff, 0xb00000, 0xffffff];
  for (const n of held) bits.add(n);
  const ranges = [
    [0, 1],
    [0, 32],
    [1, 33],
    [31, 65],
    [32, 64],
    [0, 1 << 24],
    [0xa00000, 0xb00000],
    [0xa00001, 0xa0001f],
    [50, 50],
    [60, 40],
    [0xfffff0, 1 << 24],
  ];
  for (const [from, to] of ranges)
    assert.is(bits.countRange(from, to), held.filter((n) => n >= from && n < to).length, `[${from}, ${to})`);
});

test.run();
