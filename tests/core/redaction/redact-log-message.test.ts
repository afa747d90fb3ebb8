import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LogRecord } from '../../../core/log/log-record.js';
import { redactData, redactLogMessage, redactText, SecretValues } from '../../../core/redaction/index.js';

const test = suite(
  "redactLogMessage: the terminal's message hides the values of the context's secret keys, as the stored record does",
);

/** The message as redactData's walk of the context finds the secret values (the stored record's policy). */
function byRedactData(record: LogRecord): string {
  const found = new SecretValues();
  redactData(
    record.context,
    (s) => s,
    (_, value) => {
      if (typeof value === 'string' || typeof value === 'number') found.add(String(value));
    },
  );
  return found.scrub(redactText(String(record.message)));
}

const cycle: Record<string, unknown> = { password: 'cycle-secret' };
cycle.self = cycle;
let deep: Record<string, unknown> = { token: 'too-deep-to-see' };
for (let i = 0; i < 70; i++) deep = { next: deep };
const throwing = {
  get password(): string {
    throw new Error('no');
  },
  api_key: 'after-a-throwing-getter',
};

const CONTEXTS: [string, Record<string, unknown>][] = [
  ['no secret key', { exception: { class: 'NotFoundHttpError', message: 'No route found', status: 404 } }],
  ['a secret string at the top', { password: 'hunter22-secret' }],
  ['a secret number', { pin_code: 12345678 }],
  ['a short secret (not followed)', { password: 'abc' }],
  ['a nested secret', { user: { name: 'ann', credentials: { token: 'nested-token-value' } } }],
  ['secrets in an array of objects', { users: [{ password: 'first-secret' }, { password: 'second-secret' }, 'plain'] }],
  ['a secret key holding an object (not followed inside)', { secret: { inner: 'not-a-string-value' } }],
  ['a toJSON that reveals a secret', { when: { toJSON: () => ({ password: 'from-to-json' }) } }],
  [
    'a toJSON that fails',
    {
      bad: {
        toJSON: () => {
          throw new Error('no');
        },
      },
      token: 'still-found-token',
    },
  ],
  ['a cycle', { cycle }],
  ['nesting deeper than the limit', { deep }],
  ['a getter that throws', { throwing }],
  ['empty and null secrets', { password: '', token: null, secret: undefined }],
  ['a percent-encoded secret', { password: 'a b/c&d=secret' }],
];

/** Every value of the contexts above, as a message may quote them. */
const QUOTED = [
  'NotFoundHttpError',
  'No route found',
  'hunter22-secret',
  '12345678',
  'abc',
  'ann',
  'nested-token-value',
  'first-secret',
  'second-secret',
  'plain',
  'not-a-string-value',
  'from-to-json',
  'still-found-token',
  'cycle-secret',
  'too-deep-to-see',
  'after-a-throwing-getter',
  'a b/c&d=secret',
  'a%20b%2Fc%26d%3Dsecret',
].join(', ');

for (const [name, context] of CONTEXTS) {
  test(`when the context has ${name}, then the message is what the stored record's walk gives`, () => {
    const record: LogRecord = { time: 0, level: 'ERROR', channel: 'app', message: `failed with ${QUOTED}`, context };
    assert.is(redactLogMessage(record), byRedactData(record));
  });
}

test("when a secret value is quoted in the message, then the terminal's message hides it", () => {
  const record: LogRecord = {
    time: 0,
    level: 'ERROR',
    channel: 'app',
    message: 'login failed for hunter22-secret',
    context: { password: 'hunter22-secret' },
  };
  assert.is(redactLogMessage(record), 'login failed for [REDACTED]');
});

test.run();
