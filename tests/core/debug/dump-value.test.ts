import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DUMP_MAX_DEPTH, DUMP_MAX_ITEMS, DUMP_MAX_STRING, dumpValue } from '../../../core/debug/dump-value.js';
import { dumpText } from '../../../render/dump-text.js';

const test = suite(
  'dumpValue: plain data that keeps class names and marks cycles, cut in depth and size, never throwing',
);

class Order {
  constructor(
    readonly id: number,
    readonly lines: unknown[],
  ) {}
}

test('when a class instance with a cycle is dumped, then its class is kept and the cycle marked', () => {
  const order = new Order(7, []);
  order.lines.push(order);
  assert.is(dumpText(dumpValue(order)), 'Order {\n  id: 7,\n  lines: Array(1) [\n    [circular Order]\n  ]\n}');
});

test('when values are deeper, longer or larger than the limits, then they are cut and say so', () => {
  let deep: unknown = 'bottom';
  for (let i = 0; i < DUMP_MAX_DEPTH + 3; i++) deep = { deep };
  assert.match(dumpText(dumpValue(deep)), /\[Object not shown: nested too deep\]/);
  const long = 'x'.repeat(DUMP_MAX_STRING + 10);
  assert.match(dumpText(dumpValue(long)), new RegExp(`…\\(${DUMP_MAX_STRING + 10} characters\\)$`));
  const many = Array.from({ length: DUMP_MAX_ITEMS + 5 }, (_, i) => i);
  assert.match(dumpText(dumpValue(many)), /Array\(55\) \[[^]*…5 more\n\]$/);
  const wide = Object.fromEntries(
    Array.from({ length: 400 }, (_, i) => [`k${i}`, Array.from({ length: 40 }, (__, j) => j)]),
  );
  assert.ok(JSON.stringify(dumpValue(wide)).length < 200_000, 'the whole dump stays small');
});

test('when a getter throws, a proxy refuses, or the value is a Map, Set, Date, BigInt, symbol or function, then each shows without throwing', () => {
  const tricky = {
    get boom(): never {
      throw new Error('getter failed');
    },
  };
  assert.match(dumpText(dumpValue(tricky)), /boom: getter threw "getter failed"/);
  const proxy = new Proxy(
    {},
    {
      ownKeys() {
        throw new Error('no keys');
      },
    },
  );
  assert.match(dumpText(dumpValue(proxy)), /its keys cannot be read: no keys/);
  const text = dumpText(
    dumpValue([
      new Map([['a', 1]]),
      new Set([2]),
      new Date(0),
      3n,
      Symbol('s'),
      function named() {},
      Object.create(null),
    ]),
  );
  assert.ok(text.includes('Map(1) {\n    "a" => 1\n  }'), text);
  assert.ok(text.includes('Set(1) {\n    2\n  }'));
  assert.ok(text.includes('Date 1970-01-01T00:00:00.000Z'));
  assert.ok(
    text.includes('3n') &&
      text.includes('Symbol(s)') &&
      text.includes('[Function named]') &&
      text.includes('null prototype {}'),
  );
});

test.run();
