import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeBlock } from '../../../../core/profiler/storage/record-codec.js';
import { inlineEncoder, workerEncoder } from '../../../../core/profiler/storage/record-encoder.js';
import { Utf8Slab } from '../../../../core/profiler/storage/utf8-slab.js';

const test = suite('record encoder: blocks compressed in a worker thread decode to their texts');

const texts = (block: number, n: number): string[] => Array.from({ length: n }, (_, i) => JSON.stringify({ block, slot: i, text: `é€ ${'x'.repeat(i * 37)}` }));

function decoded(record: Buffer): string[] {
  const result = decodeBlock(record);
  if (!result.ok) throw new Error(result.problem);
  return result.jsons;
}

test('when several blocks are asked for in one turn, some read in place from a slab and some plain buffers, then each record holds its own texts, as the inline encoder makes them', async () => {
  const failures: string[] = [];
  const encoder = workerEncoder((message) => failures.push(message));
  const slab = new Utf8Slab();
  // The first block starts the worker and is compressed on this thread; the later ones go to the worker.
  await encoder.encode([Buffer.from('{"warm":1}')]);
  for (let round = 0; round < 3; round++) {
    const blocks = [texts(0, 5), texts(1, 1), texts(2, 13), texts(3, 3)];
    const records = await Promise.all(blocks.map((block, b) => encoder.encode(block.map((text) => (b % 2 === 0 ? slab.encode(text) : Buffer.from(text))))));
    records.forEach((record, b) => assert.equal(decoded(record), blocks[b], `round ${round}, block ${b}`));
    const inline = await Promise.all(blocks.map((block) => inlineEncoder().encode(block.map((text) => Buffer.from(text)))));
    inline.forEach((record, b) => assert.equal(decoded(record), blocks[b]));
  }
  await encoder.close();
  assert.equal(failures, []);
});

test('when the encoder is closed with blocks asked for and not yet sent, then they are still encoded', async () => {
  const encoder = workerEncoder(() => {}, true);
  const slab = new Utf8Slab();
  const block = texts(7, 4);
  const pending = encoder.encode(block.map((text) => slab.encode(text)));
  await encoder.close();
  assert.equal(decoded(await pending), block);
});

test.run();
