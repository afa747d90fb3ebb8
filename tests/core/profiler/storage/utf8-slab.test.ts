import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Utf8Slab } from '../../../../core/profiler/storage/utf8-slab.js';

const test = suite('Utf8Slab: strings encoded into views of shared buffers');

test("when texts of one, two, three and four UTF-8 bytes per character are encoded, then each view holds exactly Buffer.from's bytes", () => {
  const slab = new Utf8Slab();
  for (const text of ['', 'plain ascii', 'café ünïcode', '€ and 中文', 'emoji 🎉 and a lone \ud800 surrogate']) {
    assert.equal(slab.encode(text), Buffer.from(text, 'utf8'), text);
  }
});

test('when more text is encoded than one slab holds, then the earlier views keep their bytes and no two views overlap', () => {
  const slab = new Utf8Slab();
  const texts = Array.from({ length: 1000 }, (_, i) => `${i}:${'é'.repeat(300 + (i % 7))}`);
  const views = texts.map((text) => slab.encode(text));
  texts.forEach((text, i) => assert.is(views[i].toString('utf8'), text, `text ${i}`));
  const buffers = new Set(views.map((view) => view.buffer));
  assert.ok(buffers.size > 1, 'the texts spanned more than one slab');
  for (let i = 1; i < views.length; i++) {
    const [a, b] = [views[i - 1], views[i]];
    if (a.buffer === b.buffer)
      assert.ok(a.byteOffset + a.length <= b.byteOffset, `views ${i - 1} and ${i} do not overlap`);
  }
});

test('when one text is larger than a slab, then it gets a buffer of its own size and reads back whole', () => {
  const slab = new Utf8Slab();
  const small = slab.encode('before');
  const huge = '€'.repeat(200_000);
  const view = slab.encode(huge);
  assert.is(view.length, 600_000);
  assert.is(view.toString('utf8'), huge);
  assert.is(small.toString('utf8'), 'before');
  assert.is(slab.encode('after').toString('utf8'), 'after');
});

test.run();
