import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ByteReader, ByteWriter } from '../../../../core/profiler/handoff/byte-writer.js';

const test = suite('a whole number through the byte writer (one to five bytes of seven bits)');

test('when numbers of every size are written, then each is read back as it was, and the reader ends where the writer did', () => {
  const numbers = [
    0,
    1,
    127,
    128,
    300,
    16_383,
    16_384,
    2 ** 21 - 1,
    2 ** 21,
    2 ** 28 - 1,
    2 ** 28,
    2 ** 31,
    2 ** 32 - 1,
  ];
  const w = new ByteWriter();
  for (const n of numbers) w.uint(n);
  const r = new ByteReader(w.take());
  assert.equal(
    numbers.map(() => r.uint()),
    numbers,
  );
  assert.ok(r.done);
});

test('when a record ends in the middle of a number, then reading it throws', () => {
  const w = new ByteWriter();
  w.uint(2 ** 21);
  const bytes = w.take();
  assert.throws(() => new ByteReader(bytes.slice(0, 2)).uint(), /in the middle of a number/);
});

test.run();
