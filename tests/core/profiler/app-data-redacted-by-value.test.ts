import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dumpValue } from '../../../core/debug/dump-value.js';
import { appValueIsSecret, REDACTED, SecretValues } from '../../../core/redaction/index.js';
import type { CollectContext } from '../../../core/profiler/collectors/collect-context.js';
import { collectCustomPanels } from '../../../core/profiler/collectors/custom-collector.js';
import { collectDump } from '../../../core/profiler/collectors/dump-collector.js';

const test = suite(
  'app-defined data (custom panel columns, dump keys) is judged by its value, not by a name like "Key" or "Token"',
);

function context(entries: Record<string, unknown[]>): CollectContext {
  const picked: Pick<CollectContext, 'entries' | 'secrets'> = {
    entries: new Map(Object.entries(entries)),
    secrets: new SecretValues(),
  };
  return picked as CollectContext;
}

test('a cache panel\'s "Key" column keeps item:1; a credential-looking value under "Key" or "Token" is replaced', () => {
  const panels = collectCustomPanels(
    context({
      'panel:cache': [
        {
          title: 'Cache',
          columns: ['Key', 'Token', 'Hit', 'Password'],
          rows: [
            ['item:1', 'next-page', 'yes', 'x'],
            ['Zq8f3kLm29Xa', 'a1b2c3d4e5f6a7b8c9d0e1f2', 'no', 'hunter2'],
            ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'user:42', 'Bearer abc.def.ghi', ''],
          ],
        },
      ],
    }),
  );
  assert.equal(panels?.cache.rows, [
    ['item:1', 'next-page', 'yes', REDACTED],
    [REDACTED, REDACTED, 'no', REDACTED],
    [REDACTED, 'user:42', `Bearer ${REDACTED}`, ''],
  ]);
});

test('dump keys: { Key: "item:1", token: "next-page" } stay; a token-looking value under "token", and anything under "password", are replaced', () => {
  const dump = (value: unknown) =>
    collectDump(context({ dump: [{ file: null, line: null, time: 0, value: dumpValue(value) }] })).dumps[0].value;
  assert.equal(
    dump({ Key: 'item:1', token: 'next-page', count: 3 }),
    dumpValue({ Key: 'item:1', token: 'next-page', count: 3 }),
  );
  assert.equal(
    dump({ key: 'Zq8f3kLm29Xa', password: 'x', secret: { a: 1 } }),
    dumpValue({ key: REDACTED, password: REDACTED, secret: REDACTED }),
  );
  assert.equal(
    dump([
      ['password', 'x'],
      ['key', 'item:1'],
    ]),
    dumpValue([
      ['password', REDACTED],
      ['key', 'item:1'],
    ]),
  );
  assert.equal(
    dump(
      new Map([
        ['Key', 'item:1'],
        ['sessionId', 'b9F3kQ0xLm2P'],
      ]),
    ),
    dumpValue(
      new Map([
        ['Key', 'item:1'],
        ['sessionId', REDACTED],
      ]),
    ),
  );
});

test('the rule: a password-family name always, another secret-reading name only with a credential-looking value, other names never', () => {
  for (const [name, value, secret] of [
    ['Key', 'item:1', false],
    ['key', 12345678, false],
    ['token', 'next-page', false],
    ['Token', 'cache-key-1234', false],
    ['token', 'Zq8f3kLm', true],
    ['session', 'a1b2c3d4e5f6a7b8c9d0', true],
    ['clientSecret', 'x', true],
    ['apiKey', 'item:1', true],
    ['pin', 1234, true],
    ['name', 'Zq8f3kLm29Xa', false],
    ['password', '', false],
    ['token', null, false],
  ] as const)
    assert.is(appValueIsSecret(name, value), secret, `${name}: ${String(value)}`);
});

test.run();
