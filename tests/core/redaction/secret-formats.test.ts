import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { redactText } from '../../../core/redaction/index.js';
import { credentialRanges, installedPresetRules, PRESET_RULES } from '../../../core/redaction/secret-formats.js';

const test = suite("credential formats from secretlint's recommended preset");

test('when the installed preset is read, then it has exactly the rules this module knows (an upgrade that adds one fails here until its marks are added)', () => {
  assert.equal(installedPresetRules().sort(), [...PRESET_RULES].sort());
});

test('when a text holds no mark of any format, then no rule runs and nothing is found', () => {
  assert.equal(credentialRanges('GET /hello/world 200 in 3 ms, user ann'), []);
});

test("when a text holds credentials of the preset's formats, then each range is found and redactText replaces them", () => {
  const anthropic = `sk-ant-api03-${'x1Y2z3'.repeat(16)}AA`;
  const sendgrid = `SG.${'a'.repeat(22)}.${'B'.repeat(43)}`;
  const slack = 'https://hooks.slack.com/services/T0ABCDEFG/B0HIJKLMN/abcdefghijklmnopqrstuvwx';
  const text = `keys: ${anthropic} and ${sendgrid} then ${slack} end`;
  assert.is(credentialRanges(text).length, 3);
  assert.is(redactText(text), 'keys: [REDACTED] and [REDACTED] then [REDACTED] end');
});

test('when a message quotes a password in a URL of any scheme, a Token value, name=value, JSON or XML, then only the secret part goes', () => {
  assert.is(redactText('cannot reach redis://:s3cretpw@cache:6379/0'), 'cannot reach redis://:[REDACTED]@cache:6379/0');
  assert.is(redactText('auth header was Token 9f8e7d6c5b4a39281'), 'auth header was Token [REDACTED]');
  assert.is(redactText('the token expired'), 'the token expired');
  assert.is(redactText('login failed for password=hunter2 (twice)'), 'login failed for password=[REDACTED] (twice)');
  assert.is(redactText('body: {"user":"ann","password":"hunter2"}'), 'body: {"user":"ann","password":"[REDACTED]"}');
  assert.is(redactText('{"user":{"credentials":{"apiKey":"k-1234567"}}}'), '{"user":{"credentials":"[REDACTED]"}}');
  assert.is(
    redactText('<login><user>ann</user><password>hunter2</password></login>'),
    '<login><user>ann</user><password>[REDACTED]</password></login>',
  );
  assert.is(
    redactText('GET http://x.test/r?next=https%3A%2F%2Fx%2F%3Ftoken%3Dabc123def&page=2'),
    'GET http://x.test/r?next=https%3A%2F%2Fx%2F%3Ftoken%3D%5BREDACTED%5D&page=2',
  );
});

test('when a PEM private key is cut before its END line (a span name, a shortened message), then the rest of the text goes with it', () => {
  assert.is(redactText('sync -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfV'), 'sync [REDACTED]');
});

test.run();
