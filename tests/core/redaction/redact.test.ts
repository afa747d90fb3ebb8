import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  hasSecretQuery,
  looksSecret,
  redactBody,
  REDACTED,
  redactQueryStrings,
  redactRecord,
} from '../../../core/redaction/index.js';

const SECRET_NAMES = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'X-API-Key',
  'api_key',
  'apikey',
  'apiKey',
  'password',
  'Password',
  'passwd',
  'pwd',
  'user_pwd',
  'new-password',
  'newPassword',
  'passphrase',
  'secret',
  'client_secret',
  'clientSecret',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'x-auth-token',
  'X-CSRF-Token',
  'csrf',
  '_csrf_token',
  'xsrf-token',
  'session',
  'session_id',
  'sessionId',
  'PHPSESSID',
  'sid',
  'auth',
  'x-auth',
  'private_key',
  'privateKey',
  'credential',
  'credentials',
  'aws_secret_access_key',
  'AWSAccessKeyId',
  'signature',
  'X-Hub-Signature-256',
  'jwt',
  'otp',
  'pin',
  'bearer',
  'saml',
  'key',
];

const INNOCENT_NAMES = [
  'page',
  'name',
  'id',
  'author',
  'authors',
  'authority',
  'compass',
  'passenger',
  'design',
  'keyboard',
  'monkey',
  'sort',
  'q',
  'limit',
  'email',
  'username',
  'description',
  'content-type',
  'accept',
  'user-agent',
  'host',
  'pinned',
  'spinner',
  'x-request-id',
  'referer',
  'cache-control',
  'if-none-match',
  'sort_key',
  'keys',
  'signed',
  'passed',
  'sessions-count',
];

/** A null-prototype copy as a plain object, for deep equality (the copies keep "__proto__" as a name). */
const plain = <T extends object>(value: T): T => ({ ...value });

const test = suite('redaction');

test('when a name looks like a password, secret, token, API key or session, then it is secret', () => {
  for (const name of SECRET_NAMES) assert.ok(looksSecret(name), name);
});

test('when a name only shares letters with a secret word ("author" and "auth"), then it is not secret', () => {
  for (const name of INNOCENT_NAMES) assert.not.ok(looksSecret(name), name);
});

test('when headers hold Authorization, Proxy-Authorization, Cookie, Set-Cookie and x-api-key, then their values are replaced and named', () => {
  const redacted: string[] = [];
  const headers = plain(
    redactRecord(
      'header',
      {
        authorization: 'Bearer s3cr3t',
        'proxy-authorization': 'Basic dXNlcjpwYXNz',
        cookie: 'a=1; b=2',
        'set-cookie': 'sid=abc; Path=/',
        'x-api-key': 'k-123',
        accept: 'text/html',
        'user-agent': 'curl/8',
      },
      redacted,
    ),
  );
  assert.equal(headers, {
    authorization: `Bearer ${REDACTED}`,
    'proxy-authorization': `Basic ${REDACTED}`,
    cookie: REDACTED,
    'set-cookie': REDACTED,
    'x-api-key': REDACTED,
    accept: 'text/html',
    'user-agent': 'curl/8',
  });
  assert.equal(redacted, [
    'header authorization',
    'header proxy-authorization',
    'header cookie',
    'header set-cookie',
    'header x-api-key',
  ]);
});

test('when the query holds secrets, then each value (repeated ones too) is replaced and the rest kept', () => {
  const redacted: string[] = [];
  const query = plain(redactRecord('query', { password: 'hunter2', page: '2', token: ['a', 'b'] }, redacted));
  assert.equal(query, { password: REDACTED, page: '2', token: [REDACTED, REDACTED] });
  assert.equal(redacted, ['query password', 'query token']);
});

test('when cookies are recorded, then every value is replaced, whatever its name', () => {
  const redacted: string[] = [];
  assert.equal(plain(redactRecord('cookie', { theme: 'dark', PHPSESSID: 'x' }, redacted)), {
    theme: REDACTED,
    PHPSESSID: REDACTED,
  });
  assert.equal(redacted, ['cookie theme', 'cookie PHPSESSID']);
});

test('when the input record is redacted, then it is left unchanged', () => {
  const input = { password: 'p' };
  redactRecord('query', input, []);
  assert.equal(input, { password: 'p' });
});

test('when a form-urlencoded body holds secret fields, then only their values are replaced, encoding kept', () => {
  const redacted: string[] = [];
  const body = redactBody(
    'application/x-www-form-urlencoded; charset=UTF-8',
    'name=Ann+Lee&client_secret=xyz%21&pass%77ord=p&page=1',
    redacted,
  );
  assert.is(body, `name=Ann+Lee&client_secret=${REDACTED}&pass%77ord=${REDACTED}&page=1`);
  assert.equal(redacted, ['form client_secret', 'form password']);
});

test('when a JSON body holds secret keys at any depth, then they are replaced and named by path', () => {
  const redacted: string[] = [];
  const body = redactBody(
    'application/json',
    JSON.stringify({ user: { name: 'a', password: 'p', apiKeys: ['k1'] }, items: [{ access_token: 't', qty: 2 }] }),
    redacted,
  );
  assert.equal(JSON.parse(body), {
    user: { name: 'a', password: REDACTED, apiKeys: REDACTED },
    items: [{ access_token: REDACTED, qty: 2 }],
  });
  assert.equal(redacted, ['body user.password', 'body user.apiKeys', 'body items[0].access_token']);
});

test('when a JSON body has no secret, then its text is kept byte for byte', () => {
  const text = '{ "name": "a",\n  "page": 2 }';
  assert.is(redactBody('application/vnd.api+json', text, []), text);
});

test('when a JSON body is cut at the body cap, then secret pairs are still replaced, an unterminated last value too', () => {
  const redacted: string[] = [];
  const body = redactBody('application/json', '{"user":"ann","password":"hunter2","pin":1234,"secret":"abc', redacted);
  assert.is(body, `{"user":"ann","password":"${REDACTED}","pin":"${REDACTED}","secret":"${REDACTED}"`);
  assert.not.match(body, /hunter2|1234|abc/);
  assert.equal(redacted, ['body password', 'body pin', 'body secret']);
});

test('when a multipart body holds a secret part, then that part value is replaced and the others kept', () => {
  const redacted: string[] = [];
  const text = [
    '--XyZ',
    'Content-Disposition: form-data; name="name"',
    '',
    'ann',
    '--XyZ',
    'Content-Disposition: form-data; name="password"',
    '',
    'hunter2',
    '--XyZ--',
    '',
  ].join('\r\n');
  const body = redactBody('multipart/form-data; boundary=XyZ', text, redacted);
  assert.is(body, text.replace('hunter2', REDACTED));
  assert.equal(redacted, ['form password']);
});

test('when a URL has secret query parameters, then their values are replaced, the others and the encoding kept', () => {
  const url = 'http://h/p?page=2&password=hunter2&x-api-key=k%2F1&empty=&token=&q=a+b#frag';
  assert.ok(hasSecretQuery(url));
  assert.is(
    redactQueryStrings(url),
    `http://h/p?page=2&password=${REDACTED}&x-api-key=${REDACTED}&empty=&token=&q=a+b#frag`,
  );
  for (const clean of [
    'http://h/p',
    'http://h/p?page=2&author=me',
    `http://h/p?token=${REDACTED}`,
    'http://h/p?token=',
  ])
    assert.not.ok(hasSecretQuery(clean), clean);
});

test('when a query value starts with a quote or a backslash, then it is replaced whole, up to the next & or #', () => {
  assert.is(redactQueryStrings('/a?secret=v"w\\z&b=1#f'), `/a?secret=${REDACTED}&b=1#f`);
  assert.is(redactQueryStrings('/a?token=\\x"y'), `/a?token=${REDACTED}`);
  assert.is(redactQueryStrings('/a?token="quoted"&page=2'), `/a?token=${REDACTED}&page=2`);
});

test('when the content type is another one or missing, then the body is read as free text: a password=… pair, an XML element or an .env line goes, the rest stays', () => {
  for (const type of ['text/plain', 'application/octet-stream', null]) {
    assert.is(redactBody(type, 'password=hunter2', []), `password=${REDACTED}`);
    assert.is(
      redactBody(type, 'user=ann\nDB_PASSWORD=s3cret\n<pin>1234</pin>', []),
      `user=ann\nDB_PASSWORD=${REDACTED}\n<pin>${REDACTED}</pin>`,
    );
  }
});

test.run();
