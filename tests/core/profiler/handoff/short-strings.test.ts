import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ByteReader, ByteWriter } from '../../../../core/profiler/handoff/byte-writer.js';
import { MAX_SHORT_STRING } from '../../../../core/profiler/handoff/short-strings.js';

const test = suite('the reader keeps the short strings it met and gives each back for the same bytes only');

test('when many short strings come again and again, some sharing a slot, then each is read back as written', () => {
  let seed = 11;
  const random = (n: number) => (seed = (seed * 16807) % 2147483647) % n;
  const alphabet = ['a', 'b', 'Z', '0', '-', '/', ' ', 'é', '✓', '😀', '\u0000', '\ufeff'];
  const texts = ['', 'GET', 'host', 'x'.repeat(MAX_SHORT_STRING), 'y'.repeat(MAX_SHORT_STRING + 1), '\ufeffbom'];
  for (let i = 0; i < 20_000; i++) {
    let text = '';
    for (let n = random(24); n > 0; n--) text += alphabet[random(alphabet.length)];
    texts.push(text);
  }
  for (let round = 0; round < 3; round++) {
    const writer = new ByteWriter();
    for (const text of texts) writer.string(text);
    const reader = new ByteReader(writer.take());
    for (const text of texts) assert.is(reader.string(), text);
    texts.reverse();
  }
});

test.run();
