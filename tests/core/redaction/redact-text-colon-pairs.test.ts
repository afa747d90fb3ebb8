import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { REDACTED, redactText } from '../../../core/redaction/index.js';

const test = suite('free text: "name: value" pairs and OpenAI project keys without the marker the preset wants');

test('a header line or "name: value" quoted in a message loses its value; prose and data stay', () => {
  for (const [text, clean] of [
    ['x-passcode: 123456', `x-passcode: ${REDACTED}`],
    ['retry with passcode: 4242 please', `retry with passcode: ${REDACTED} please`],
    ['config secret: s3cr3tvalue, region: eu', `config secret: ${REDACTED}, region: eu`],
    ['got X-Api-Key: AbC123xyz987', `got X-Api-Key: ${REDACTED}`],
    ['Token: abc123def456ghi', `Token: ${REDACTED}`],
    ['Authorization: Token 0123456789', `Authorization: Token ${REDACTED}`],
    ['Error: token expired', 'Error: token expired'],
    ['Refresh token: missing', 'Refresh token: missing'],
    ['at 12:30:45 key: item:1', 'at 12:30:45 key: item:1'],
    ['see https://x.test:8080/a', 'see https://x.test:8080/a'],
  ])
    assert.is(redactText(text), clean, text);
});

test('text redacted once is left as it is when redacted again (a stored record is redacted when written and when read)', () => {
  for (const text of [
    "    return { user: 'ann', password: planted.responsePassword, items: [{ deep: { secret: planted.deep } }] };",
    'x-passcode: 123456 and Authorization: Bearer abcdef123456',
    'config secret: s3cr3tvalue, region: eu',
    '{"password":"hunter2","user":"ann"} <token>abc</token>',
  ]) {
    const once = redactText(text);
    assert.ok(once.includes(REDACTED), once);
    assert.is(redactText(once), once, text);
  }
});

test('OpenAI sk-proj-, sk-svcacct- and sk-admin- keys are replaced whatever their middle', () => {
  const core = 'abcDEF1234567890abcdefGHIJKLMNOPqrstuvWXyz0123456789abcdEFGH';
  for (const prefix of ['sk-proj-', 'sk-svcacct-', 'sk-admin-']) {
    const clean = redactText(`OPENAI_API_KEY is ${prefix}${core}`);
    assert.not.ok(clean.includes(core), clean);
    assert.ok(clean.includes(prefix), 'the prefix tells which kind of key it was');
  }
});

test.run();
