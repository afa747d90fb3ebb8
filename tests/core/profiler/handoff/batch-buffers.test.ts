import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BatchBuffers } from '../../../../core/profiler/handoff/batch-buffers.js';

const test = suite('the shared buffers batches of records travel in');

test('when a batch is answered for, then its buffer carries the next batch that fits, and no new one is made', () => {
  const buffers = new BatchBuffers();
  const first = buffers.lend(100_000)!;
  assert.ok(first instanceof SharedArrayBuffer);
  assert.ok(first.byteLength >= 100_000);
  buffers.giveBack(first);
  assert.is(buffers.lend(50_000), first);
  const second = buffers.lend(50_000)!;
  assert.is.not(second, first, 'a buffer still lent is not lent twice');
});

test('when a batch is bigger than every free buffer, then a buffer big enough is made and the small ones stay free', () => {
  const buffers = new BatchBuffers();
  const small = buffers.lend(1_000)!;
  buffers.giveBack(small);
  const big = buffers.lend(small.byteLength + 1)!;
  assert.ok(big.byteLength > small.byteLength);
  assert.is(buffers.lend(10), small);
});

test('when the buffers made reach their bound, then a batch gets none and travels in a copy of its own', () => {
  const buffers = new BatchBuffers();
  const lent: SharedArrayBuffer[] = [];
  for (let buffer = buffers.lend(4 << 20); buffer !== null; buffer = buffers.lend(4 << 20)) lent.push(buffer);
  assert.ok(lent.length >= 4, `${lent.length} buffers of 4 MB`);
  assert.ok(lent.length <= 32, `${lent.length} buffers of 4 MB: bounded`);
  buffers.giveBack(lent[0]);
  assert.is(buffers.lend(4 << 20), lent[0]);
});

test.run();
