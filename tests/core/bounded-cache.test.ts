import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BoundedCache } from '../../core/bounded-cache.js';

const test = suite('a bounded cache is emptied when full');

test('when it holds fewer entries than its bound, then each one comes back', () => {
  const cache = new BoundedCache<string, number>(3);
  assert.is(cache.set('a', 1), 1);
  cache.set('b', 2);
  cache.set('c', 3);
  assert.equal([cache.get('a'), cache.get('b'), cache.get('c'), cache.size], [1, 2, 3, 3]);
});

test('when one more key comes to a full cache, then only the new entry is left', () => {
  const cache = new BoundedCache<string, number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('c', 3);
  assert.equal([cache.has('a'), cache.has('b'), cache.get('c'), cache.size], [false, false, 3, 1]);
});

test('when a key it holds is set again in a full cache, then the others stay', () => {
  const cache = new BoundedCache<string, number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('b', 20);
  assert.equal([cache.get('a'), cache.get('b'), cache.size], [1, 20, 2]);
});

test('when a value is undefined, then has() tells it from a missing key', () => {
  const cache = new BoundedCache<string, undefined>(2);
  cache.set('none', undefined);
  assert.equal([cache.has('none'), cache.has('other')], [true, false]);
});

test('when cleared, then nothing is left', () => {
  const cache = new BoundedCache<number, number>(4);
  cache.set(1, 1);
  cache.clear();
  assert.equal([cache.size, cache.get(1)], [0, undefined]);
});

test.run();
