import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Worker } from 'node:worker_threads';
import { ByteReader, ByteWriter } from '../../../../core/profiler/handoff/byte-writer.js';

const test = suite('a batch of records handed over in shared memory');

function write(w: ByteWriter, i: number): void {
  w.string(`GET /hello/${'é'.repeat(i)}`);
  w.floats([i, i + 0.5]);
  w.bytes(Buffer.from([i, 255, 0]));
  w.uint(2 ** 20 + i);
}

function read(r: ByteReader, i: number): void {
  assert.is(r.string(), `GET /hello/${'é'.repeat(i)}`);
  const numbers: number[] = [];
  r.floats(numbers);
  assert.equal(numbers, [i, i + 0.5]);
  assert.equal([...r.bytes()], [i, 255, 0]);
  assert.is(r.uint(), 2 ** 20 + i);
}

test('when a shared writer hands a batch over, then it is the memory it was written in, and the next batch goes into memory of its own', () => {
  const w = new ByteWriter(true);
  write(w, 1);
  const first = w.take();
  assert.ok(first.buffer instanceof SharedArrayBuffer);
  assert.is(first.byteOffset, 0);
  write(w, 2);
  const second = w.take();
  assert.is.not(second.buffer, first.buffer);
  const r = new ByteReader(first);
  read(r, 1);
  assert.ok(r.done, 'the first batch ends where its writes ended');
  read(new ByteReader(second), 2);
});

test('when a shared batch outgrows its buffer, then it grows in shared memory and reads back whole', () => {
  const w = new ByteWriter(true);
  for (let i = 0; i < 3000; i++) write(w, i % 40);
  const batch = w.take();
  assert.ok(batch.buffer instanceof SharedArrayBuffer);
  assert.ok(batch.byteLength > 64 * 1024);
  const r = new ByteReader(batch);
  for (let i = 0; i < 3000; i++) read(r, i % 40);
  assert.ok(r.done);
});

test('when a shared batch is posted to another thread, then that thread reads the very bytes written, without a copy', async () => {
  const w = new ByteWriter(true);
  w.uint(7);
  const batch = w.take();
  // The other thread changes the byte it read: the change shows here only if the memory is shared.
  const worker = new Worker(`
    const { parentPort } = require('node:worker_threads');
    parentPort.once('message', (bytes) => { const seen = bytes[0]; bytes[0] = 99; parentPort.postMessage(seen); });
  `, { eval: true });
  try {
    const seen = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage(batch);
    });
    assert.is(seen, 7);
    assert.is(batch[0], 99);
  } finally {
    await worker.terminate();
  }
});

test.run();
