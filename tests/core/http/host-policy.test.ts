import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hostChecker, HostPolicy, normaliseHostName, parseAuthority } from '../../../core/http/host-policy.js';
import { Request } from '../../../core/http/request.js';

const parse = suite('parseAuthority: a Host header value as RFC 9112 §3.2 allows it');

const VALID: [string, string, number | null][] = [
  ['localhost', 'localhost', null],
  ['LocalHost:8000', 'localhost', 8000],
  ['127.0.0.1:0', '127.0.0.1', 0],
  ['[::1]', '[::1]', null],
  ['[::1]:65535', '[::1]', 65535],
  ['[FE80::A%25eth0]:1', '[fe80::a%25eth0]', 1],
  ['[v1.fe80::a+en1]', '[v1.fe80::a+en1]', null],
  ['my-app.test', 'my-app.test', null],
  ['xn--bcher-kva.example:80', 'xn--bcher-kva.example', 80],
  ["sub_delims!$&'()*+,;=.test", "sub_delims!$&'()*+,;=.test", null],
  ['pct%2Dencoded', 'pct%2dencoded', null],
];

for (const [value, host, port] of VALID) {
  parse(`when the Host is ${JSON.stringify(value)}, then it is host ${host} port ${port}`, () => {
    assert.equal(parseAuthority(value), { host, port });
  });
}

const INVALID: [string, string][] = [
  ['', 'empty'],
  ['a@b', 'userinfo'],
  ['user:pass@127.0.0.1', 'userinfo with a password'],
  ['a b', 'a space'],
  [' localhost', 'a leading space'],
  ['127.0.0.1:80:80', 'host:port:port'],
  ['[::1', 'an unbalanced ['],
  ['::1]', 'an unbalanced ]'],
  ['::1', 'an unbracketed IPv6 address'],
  ['[::1]x', 'text after the ]'],
  ['[not-ip]', 'a bracketed name'],
  ['localhost:http', 'a non-numeric port'],
  ['localhost:', 'an empty port'],
  ['localhost:123456', 'a six-digit port'],
  ['localhost:65536', 'a port over 65535'],
  ['localhost/path', 'a path'],
  ['localhost?q', 'a query'],
  ['localhost#f', 'a fragment'],
  ['<script>', 'angle brackets'],
  ['a%zz', 'a bad percent escape'],
  ['h\u00e9', 'a byte above 0x7F'],
];

for (const [value, what] of INVALID) {
  parse(`when the Host has ${what} (${JSON.stringify(value)}), then it is no authority`, () => {
    assert.is(parseAuthority(value), null);
  });
}

parse.run();

// ---

const names = suite('normaliseHostName: the names --host and --allow-host take');

names('when an IPv6 address is given bare or bracketed, then it is the bracketed form a Host carries', () => {
  assert.is(normaliseHostName('::1'), '[::1]');
  assert.is(normaliseHostName('[::1]'), '[::1]');
});

names('when a name is given in capitals, then it is lower-cased', () => {
  assert.is(normaliseHostName('MyApp.TEST'), 'myapp.test');
});

names('when a name has a port, a space, userinfo or nothing, then it is refused', () => {
  for (const bad of ['myapp.test:8000', '[::1]:80', 'a b', 'a@b', '', 'http://myapp.test'])
    assert.is(normaliseHostName(bad), null, bad);
});

names.run();

// ---

const policy = suite('HostPolicy: loopback and the given names, any port, any case');

policy('when no name is given, then localhost, 127.0.0.1 and [::1] are allowed on any port, and nothing else', () => {
  const p = new HostPolicy();
  for (const host of ['localhost', 'LOCALHOST:1', '127.0.0.1:8000', '[::1]:9'])
    assert.ok(p.allows(parseAuthority(host)!), host);
  for (const host of ['evil.example', 'evil.example:8000', '127.0.0.2', 'localhost.evil.example', '0.0.0.0']) {
    assert.not.ok(p.allows(parseAuthority(host)!), host);
  }
  assert.equal(p.names, ['localhost', '127.0.0.1', '[::1]']);
});

policy(
  'when names are given, then they are allowed whatever their case and port, listed once each after loopback',
  () => {
    const p = new HostPolicy(['127.0.0.1', 'MyApp.test', '::1', 'dev.local']);
    assert.ok(p.allows(parseAuthority('myapp.TEST:4000')!));
    assert.ok(p.allows(parseAuthority('dev.local')!));
    assert.not.ok(p.allows(parseAuthority('app.test')!));
    assert.equal(p.names, ['localhost', '127.0.0.1', '[::1]', 'myapp.test', 'dev.local']);
  },
);

policy.run();

// ---

const location = suite('Request.locationOf: the Location of a redirect the server builds');

const request = (host: string, trustedHost: boolean) =>
  new Request({ method: 'GET', target: '/a/', headers: { host }, trustedHost });

location('when the Host is trusted, then the Location is the absolute URL', () => {
  assert.is(request('127.0.0.1:8000', true).locationOf('/a?x=1'), 'http://127.0.0.1:8000/a?x=1');
});

location('when the Host is not trusted, then the Location is the path and query only', () => {
  assert.is(request('evil.example', false).locationOf('/a?x=1'), '/a?x=1');
});

location(
  'when the Host is not trusted and the path starts with // or a backslash, then it cannot read as another host',
  () => {
    for (const path of ['//evil.example/x', '/\\evil.example', '\\\\evil.example']) {
      const target = request('evil.example', false).locationOf(path);
      assert.is(new URL(target, 'http://127.0.0.1:8000/').host, '127.0.0.1:8000', `${path} -> ${target}`);
    }
  },
);

location.run();

// ---

const checker = suite('hostChecker: what a policy says of a Host value, the last answer kept');

checker('when values alternate, then each gets its own answer: allowed, other, not an authority', () => {
  const check = hostChecker(new HostPolicy(['myapp.test']));
  const seen = [
    '127.0.0.1:8000',
    '127.0.0.1:8000',
    'evil.example',
    'a b',
    'MyApp.Test:9',
    'a b',
    'evil.example',
    '127.0.0.1:8000',
  ].map(check);
  assert.equal(seen, [true, true, false, null, true, null, false, true]);
});

checker('when asked again for the same value, then the answer equals parseAuthority and allows()', () => {
  const policy = new HostPolicy();
  const check = hostChecker(policy);
  for (const value of ['localhost:3000', '[::1]:1', 'example.com', 'user@host', '']) {
    const authority = parseAuthority(value);
    const expected = authority === null ? null : policy.allows(authority);
    assert.is(check(value), expected, value);
    assert.is(check(value), expected, `${value} (again)`);
  }
});

checker.run();
