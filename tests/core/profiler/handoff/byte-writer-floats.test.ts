import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ByteReader, ByteWriter } from '../../../../core/profiler/handoff/byte-writer.js';

const test = suite('a trace row of numbers through the byte writer');

test('when rows of numbers follow fields of any length, then they read back exactly, aligned, between the fields around them', () => {
  const w = new ByteWriter();
  const rows = [[], [7], [1, 2, 1234.5678901234, 1234.6, 0], [0.1, -3, 2 ** 40 + 0.5, Number.MAX_SAFE_INTEGER]];
  for (const [i, row] of rows.entries()) {
    w.string('x'.repeat(i * 3 + 1));
    w.floats(row);
    w.uint(300 + i);
  }
  const r = new ByteReader(w.take());
  for (const [i, row] of rows.entries()) {
    assert.is(r.string(), 'x'.repeat(i * 3 + 1));
    const read: number[] = [];
    r.floats(read);
    assert.equal(read, row);
    assert.is(r.uint(), 300 + i);
  }
  assert.ok(r.done);
});

test('when a record is cut in the middle of its numbers, then reading it throws instead of reading past its end', () => {
  const w = new ByteWriter();
  w.floats([1, 2, 3, 4]);
  const whole = w.take();
  const r = new ByteReader(whole.slice(0, whole.byteLength - 8));
  assert.throws(() => r.floats([]), /in the middle of its numbers/);
});

test('when numbers are padded to their alignment, then the padding is zeros, never the bytes an earlier batch left in the buffer', () => {
  const w = new ByteWriter();
  // an earlier batch: bytes that could be anything a request carried
  w.string('\u00ff'.repeat(64));
  w.take();
  w.uint(1);
  w.floats([1.5]);
  w.uint(2);
  w.padTo8();
  const bytes = new Uint8Array(w.take());
  // uint 1 (one byte), the count (one byte), six bytes of padding, the number, uint 2, seven bytes of padding
  assert.equal([...bytes.subarray(2, 8)], [0, 0, 0, 0, 0, 0]);
  assert.equal([...bytes.subarray(17, 24)], [0, 0, 0, 0, 0, 0, 0]);
  assert.is(bytes.length, 24);
});

test.run();
