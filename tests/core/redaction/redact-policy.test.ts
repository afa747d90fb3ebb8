import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  looksSecret,
  redactBody,
  REDACTED,
  redactPath,
  redactQueryString,
  redactRecord,
  redactShapes,
  redactText,
} from '../../../core/redaction/index.js';

const NEW_SECRET_NAMES = [
  'pw',
  'user_pw',
  'creds',
  'aws-creds',
  'refresh',
  'code',
  'Ocp-Apim-Subscription-Key',
  'x-goog-api-key',
  'hmac_key',
  'signing-key',
  'subscriptionKey',
  'masterkey',
  'my-token',
  'webhook-secret',
  'X-Upstream-Token',
];
const STILL_INNOCENT = [
  'zip_code',
  'country_code',
  'status_code',
  'sort_key',
  'primary-key',
  'idempotency-key',
  'monkey',
  'keyboard',
  'keys',
  'refreshed',
  'author',
  'compass',
  'design',
  'pwa',
];

const test = suite('redaction policy: names, shapes, Authorization schemes, bodies sniffed, paths');

test('when a name is pw, creds, refresh, code or ends in key, token or secret, then it is secret', () => {
  for (const name of NEW_SECRET_NAMES) assert.ok(looksSecret(name), name);
});

test('when a name only ends like a secret ("zip_code", "sort_key", "monkey"), then it stays readable', () => {
  for (const name of STILL_INNOCENT) assert.not.ok(looksSecret(name), name);
});

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

test('when a value holds a credential of a known shape under any name, then its secret part is replaced', () => {
  const cases: [string, string][] = [
    ['Bearer abc.def-ghi', `Bearer ${REDACTED}`],
    [`id=${JWT};x`, `id=${REDACTED};x`],
    ['key sk_live_4eC39HqLyjWDarjtT1zdp7dc here', `key sk_live_${REDACTED} here`],
    ['rk_test_51Habcdefghij', `rk_test_${REDACTED}`],
    ['pk_live_abcdefghij12', `pk_live_${REDACTED}`],
    ['ghp_16C7e42F292c6912E7710c838347Ae178B4a', `ghp_${REDACTED}`],
    ['github_pat_11ABCDEFG0123456789_abcdef', `github_pat_${REDACTED}`],
    ['xoxb-1234567890-abcdefghij', `xoxb-${REDACTED}`],
    ['AKIAIOSFODNN7EXAMPLE', REDACTED],
    [`Basic ${Buffer.from('ann:hunter2').toString('base64')}`, `Basic ${REDACTED}`],
  ];
  for (const [value, clean] of cases) assert.is(redactShapes(value), clean, value);
});

test('when a text only looks close to a shape ("Basic usage", "sk_live" alone), then it is kept as it is', () => {
  for (const text of ['Basic usage of the API', 'the sk_live_ prefix', 'eyJ alone', 'a plain sentence'])
    assert.is(redactShapes(text), text);
});

test('when Authorization holds an unknown first word ("sk_live_abc rest"), then nothing of it is kept; a known scheme is', () => {
  const redacted: string[] = [];
  const headers = redactRecord(
    'header',
    {
      authorization: 'sk_live_abc rest',
      'proxy-authorization': 'Negotiate YIIabc',
      'x-upstream-authorization': 'AWS4-HMAC-SHA256 Credential=AKID/x',
    },
    redacted,
  );
  assert.is(headers.authorization, REDACTED);
  assert.is(headers['proxy-authorization'], `Negotiate ${REDACTED}`);
  assert.is(headers['x-upstream-authorization'], `AWS4-HMAC-SHA256 ${REDACTED}`);
});

test('when a neutral header holds a Bearer token, a JWT or a secret URL, then it is redacted and named', () => {
  const redacted: string[] = [];
  const headers = redactRecord(
    'header',
    {
      'x-upstream': 'Bearer t0ken-value',
      'x-client-data': JWT,
      'x-original-url': '/reset?token=abc&step=2',
      accept: 'text/html',
    },
    redacted,
  );
  assert.equal(
    { ...headers },
    {
      'x-upstream': `Bearer ${REDACTED}`,
      'x-client-data': REDACTED,
      'x-original-url': `/reset?token=${REDACTED}&step=2`,
      accept: 'text/html',
    },
  );
  assert.equal(redacted, ['header x-upstream', 'header x-client-data', 'header x-original-url']);
});

test("when X-Debug-Token and its link end with a profile's token, then the token is kept and what comes before it is judged", () => {
  const redacted: string[] = [];
  const headers = redactRecord(
    'header',
    {
      'X-Debug-Token': 'c0694c',
      'X-Debug-Token-Link': 'http://127.0.0.1:8000/_profiler/c0694c',
      'x-debug-token-link': 'http://me:hunter22@dev.test/_profiler/c0694c',
    },
    redacted,
  );
  assert.equal(
    { ...headers },
    {
      'X-Debug-Token': 'c0694c',
      'X-Debug-Token-Link': 'http://127.0.0.1:8000/_profiler/c0694c',
      'x-debug-token-link': `http://me:${REDACTED}@dev.test/_profiler/c0694c`,
    },
  );
  assert.equal(redacted, ['header x-debug-token-link']);
});

test('when X-Debug-Token or its link ends with something else than a token, then the whole value is judged', () => {
  const headers = redactRecord(
    'header',
    { 'X-Debug-Token': 'Bearer abc123def456', 'X-Debug-Token-Link': '/_profiler/x?token=s3cr3t' },
    [],
  );
  assert.equal(
    { ...headers },
    { 'X-Debug-Token': `Bearer ${REDACTED}`, 'X-Debug-Token-Link': `/_profiler/x?token=${REDACTED}` },
  );
});

test('when names are __proto__ and constructor, then the copy keeps them as names, and so does its JSON', () => {
  const record = JSON.parse('{"__proto__":"p1","constructor":"c1","password":"x"}') as Record<string, string>;
  const copy = redactRecord('query', record, []);
  assert.equal(Object.keys(copy), ['__proto__', 'constructor', 'password']);
  assert.is(JSON.stringify(copy), `{"__proto__":"p1","constructor":"c1","password":"${REDACTED}"}`);
});

test('when a body starts with { or [ whatever its content type, then it is redacted as JSON', () => {
  for (const type of ['text/plain', 'text/json', null, 'application/octet-stream']) {
    const redacted: string[] = [];
    const body = redactBody(type, `  {"user":"ann","password":"hunter2","id_tok":"${JWT}"}`, redacted);
    assert.equal(JSON.parse(body), { user: 'ann', password: REDACTED, id_tok: REDACTED }, String(type));
    assert.equal(redacted, ['body password'], String(type));
  }
  const list = redactBody(null, '[{"token":"t1"},{"name":"b"}]', []);
  assert.equal(JSON.parse(list), [{ token: REDACTED }, { name: 'b' }]);
});

test('when a multipart part is named without quotes or with name*=, then its secret value is replaced', () => {
  const redacted: string[] = [];
  const text = [
    '--B',
    'Content-Disposition: form-data; name=password',
    '',
    'hunter2',
    '--B',
    "Content-Disposition: form-data; name*=UTF-8''client_secret",
    '',
    's3cr3t',
    '--B',
    'Content-Disposition: form-data; name="title"',
    '',
    'hello',
    '--B--',
    '',
  ].join('\r\n');
  const body = redactBody('multipart/form-data; boundary=B', text, redacted);
  assert.is(body, text.replace('hunter2', REDACTED).replace('s3cr3t', REDACTED));
  assert.equal(redacted, ['form password', 'form client_secret']);
});

test('when a JSON body is nested deeper than 64 levels, then it is replaced by a note and listed, without a stack overflow', () => {
  const redacted: string[] = [];
  const deep = `${'['.repeat(8192)}"sk_live_abcdefghijkl"${']'.repeat(8192)}`;
  const body = redactBody('application/json', deep, redacted);
  assert.is(body, '[body not stored: it could not be redacted (nested deeper than 64 levels)]');
  assert.equal(redacted, ['body']);
});

test('when a JSON body is nested 64 levels or less, then it is kept', () => {
  const text = `${'['.repeat(60)}1${']'.repeat(60)}`;
  assert.is(redactBody('application/json', text, []), text);
});

test('when a route parameter looks secret, then its path segment is replaced, the others kept', () => {
  assert.is(
    redactPath('/reset/abc%20def/confirm', { route: 'reset', params: { token: 'abc def' } }),
    `/reset/${REDACTED}/confirm`,
  );
  assert.is(
    redactPath('/files/a/b/token-x', { route: 'files', params: { token: 'a/b' } }),
    `/files/${REDACTED}/${REDACTED}/token-x`,
  );
  assert.is(redactPath('/users/42', { route: 'user', params: { id: '42' } }), '/users/42');
});

test('when the route is one of the profiler routes, then its {token} (a profile token, which opens nothing) is kept', () => {
  assert.is(redactPath('/_profiler/abc123', { route: '_profiler', params: { token: 'abc123' } }), '/_profiler/abc123');
});

test('when a raw query string is redacted, then secret names lose their value and others holding a secret URL are encoded again', () => {
  assert.is(
    redactQueryString('a=1&token="x\\y&next=%2Fb%3Fapi_key%3Dk1&q=a+b'),
    `a=1&token=${REDACTED}&next=${encodeURIComponent(`/b?api_key=${REDACTED}`)}&q=a+b`,
  );
});

test('when a free text holds a secret URL, then the value ends at whitespace too', () => {
  assert.is(redactText('GET /cb?code=abc123 then Bearer xyz.1'), `GET /cb?code=${REDACTED} then Bearer ${REDACTED}`);
});

test.run();
