import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../core/profiler/profile.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { requestHead, sendRaw, sendRawUntilClose, type RawAnswer } from './raw-http.js';

interface Case {
  name: string;
  /** the request bytes; `host` is the server's host:port */
  bytes: (host: string) => string | Buffer;
  status: number;
  /** text the answer must show, naming what is wrong */
  says: (host: string) => string;
  /** reached the kernel: it carries X-Debug-Token and its profile loads */
  profiled: boolean;
  /** more checks on the answer and, when profiled, its profile */
  also?: (answer: RawAnswer, profile: Profile | null) => void;
}

const get =
  (target: string, extra: string[] = []) =>
  (host: string) =>
    requestHead(`GET ${target} HTTP/1.1`, [`Host: ${host}`, ...extra]);
const bytesOf = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

const CASES: Case[] = [
  {
    name: 'a malformed percent-escape in a path no route matches',
    bytes: get('/robots%zz.txt'),
    status: 404,
    profiled: true,
    says: (host) => `No route found for "GET http://${host}/robots%zz.txt"`,
  },
  {
    name: 'a malformed percent-escape in a route parameter (kept as a literal percent sign)',
    bytes: get('/hello/%zz'),
    status: 200,
    profiled: true,
    says: () => 'Hello %zz!',
    also: (_, profile) => assert.equal(profile!.collectors.request.routeParams, { name: '%zz' }),
  },
  {
    name: 'percent-escapes that are not UTF-8 (kept encoded)',
    bytes: get('/hello/%FF%FE%C3'),
    status: 200,
    profiled: true,
    says: () => 'Hello %FF%FE%C3!',
    also: (_, profile) => assert.equal(profile!.collectors.request.routeParams, { name: '%FF%FE%C3' }),
  },
  {
    name: 'raw bytes that are not UTF-8 in the request target',
    bytes: (host) =>
      bytesOf('GET /hello/', [0xff, 0xfe, 0xc3], ` HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    status: 400,
    profiled: false,
    says: () => 'the request target is malformed',
    also: (a) => assert.match(a.body, /bytes above 0x7F must be percent-encoded/),
  },
  {
    name: 'a request target without its leading slash',
    bytes: get('robots.txt'),
    status: 400,
    profiled: false,
    says: () => 'the request target must start with "/" (or be an absolute URL)',
    also: (a) => assert.not.match(a.body, /percent-encoded/),
  },
  {
    name: 'a raw NUL byte in the request target',
    bytes: get('/hello/a\0b'),
    status: 400,
    profiled: false,
    says: () => 'the request target is malformed',
  },
  {
    name: 'a percent-encoded NUL byte in the path',
    bytes: get('/hello/a%00b'),
    status: 400,
    profiled: false,
    says: () => 'the request target contains a NUL byte',
  },
  {
    name: 'a percent-encoded NUL byte in the query',
    bytes: get('/hello/a?q=%00'),
    status: 400,
    profiled: false,
    says: () => 'the request target contains a NUL byte',
  },
  {
    name: 'a NUL byte in a header value',
    bytes: get('/hello/a', ['X-Note: a\0b']),
    status: 400,
    profiled: false,
    says: () => 'a header name or value holds a character not allowed there',
  },
  {
    name: 'a request target over the URL limit (8192)',
    bytes: get(`/${'a'.repeat(9000)}`),
    status: 414,
    profiled: false,
    says: () => 'URI Too Long: the request target has 9001 characters (limit 8192).',
  },
  {
    name: 'a request target longer than the whole header buffer (32 KiB)',
    bytes: get(`/${'a'.repeat(40_000)}`),
    status: 414,
    profiled: false,
    says: () => 'URI Too Long: the request target is longer than the limit of 8192 characters.',
  },
  {
    name: 'one header over the header limit',
    bytes: get('/', [`X-Big: ${'b'.repeat(40_000)}`]),
    status: 431,
    profiled: false,
    says: () => 'Request Header Fields Too Large: the request headers exceed 32768 bytes.',
  },
  {
    name: 'many small headers over the header limit together',
    bytes: get(
      '/',
      Array.from({ length: 400 }, (_, i) => `X-Many-${i}: ${'c'.repeat(100)}`),
    ),
    status: 431,
    profiled: false,
    says: () => 'the request headers exceed 32768 bytes',
  },
  {
    name: 'a declared body over the body limit (1 MiB)',
    bytes: (host) =>
      requestHead('POST /contact HTTP/1.1', [`Host: ${host}`, 'Content-Length: 2000000', 'Content-Type: text/plain']) +
      'x'.repeat(1000),
    status: 413,
    profiled: false,
    says: () => 'Content Too Large: the request body exceeds the limit of 1048576 bytes.',
  },
  {
    name: 'a chunked body that grows over the body limit',
    bytes: (host) =>
      requestHead('POST /contact HTTP/1.1', [`Host: ${host}`, 'Transfer-Encoding: chunked']) +
      `100000\r\n${'x'.repeat(0x100000)}\r\n10\r\n${'y'.repeat(16)}\r\n0\r\n\r\n`,
    status: 413,
    profiled: false,
    says: () => 'the request body exceeds the limit of 1048576 bytes',
  },
  {
    name: 'a method the HTTP parser does not know',
    bytes: (host) => requestHead('BREW /hello/a HTTP/1.1', [`Host: ${host}`]),
    status: 501,
    profiled: false,
    says: () => 'Not Implemented: the method "BREW" is not one this server knows.',
  },
  {
    name: 'a lower-case method',
    bytes: (host) => requestHead('get /hello/a HTTP/1.1', [`Host: ${host}`]),
    status: 501,
    profiled: false,
    says: () => 'the method "get" is not one this server knows',
  },
  {
    name: 'a known method no route allows (PROPFIND)',
    bytes: (host) => requestHead('PROPFIND / HTTP/1.1', [`Host: ${host}`]),
    status: 405,
    profiled: true,
    says: (host) => `No route found for "PROPFIND http://${host}/": Method Not Allowed (Allow: GET)`,
    also: (a, profile) => {
      assert.is(a.headers.allow, 'GET');
      assert.is(profile!.method, 'PROPFIND');
    },
  },
  {
    name: 'a line that is no request at all',
    bytes: () => 'hello there\r\n\r\n',
    status: 400,
    profiled: false,
    says: () => 'the request line does not start with an HTTP method',
  },
  {
    name: 'CONNECT (a tunnel request)',
    bytes: (host) => requestHead('CONNECT example.test:443 HTTP/1.1', [`Host: ${host}`]),
    status: 501,
    profiled: false,
    says: () => 'Not Implemented: this server opens no tunnels (CONNECT).',
  },
  {
    name: 'an absolute-form request target naming another host (its authority answers to the Host policy)',
    bytes: get('http://elsewhere.test/hello/absolute?x=1'),
    status: 421,
    profiled: false,
    says: () => 'does not answer to the Host "elsewhere.test"',
  },
  {
    name: 'an absolute-form request target naming this server (served as its path and query)',
    bytes: (host) => requestHead(`GET http://${host}/hello/absolute?x=1 HTTP/1.1`, [`Host: ${host}`]),
    status: 200,
    profiled: true,
    says: () => 'Hello absolute!',
    also: (_, profile) => {
      assert.is(profile!.collectors.request.path, '/hello/absolute');
      assert.equal(profile!.collectors.request.query, { x: '1' });
    },
  },
  {
    name: 'an absolute-form request target of another scheme',
    bytes: get('ftp://elsewhere.test/hello/a'),
    status: 400,
    profiled: false,
    says: () => 'Bad Request: the request target "ftp://elsewhere.test/hello/a" is not a path.',
  },
  {
    name: 'an asterisk request target',
    bytes: (host) => requestHead('OPTIONS * HTTP/1.1', [`Host: ${host}`]),
    status: 400,
    profiled: false,
    says: () => 'Bad Request: the request target "*" is not a path.',
  },
  {
    name: 'an authority-form target outside CONNECT',
    bytes: get('example.test:80'),
    status: 400,
    profiled: false,
    says: () => 'the request target is malformed',
  },
  {
    name: '".." segments (matched as sent, never resolved to another route)',
    bytes: get('/hello/../_profiler/search'),
    status: 404,
    profiled: true,
    says: (host) => `No route found for "GET http://${host}/hello/../_profiler/search"`,
  },
  {
    name: '"%2e%2e" segments towards a system file',
    bytes: get('/hello/%2e%2e/%2e%2e/etc/passwd'),
    status: 404,
    profiled: true,
    says: (host) => `No route found for "GET http://${host}/hello/%2e%2e/%2e%2e/etc/passwd"`,
    also: (a) => assert.not.match(a.body, /root:/),
  },
  {
    name: '".." in a profiler token',
    bytes: get('/_profiler/../../etc/passwd'),
    status: 404,
    profiled: true,
    says: () => 'Token "../../etc/passwd" not found.',
    also: (a) => assert.not.match(a.body, /root:/),
  },
  {
    name: '"%2e%2e%2f" in a profiler JSON token',
    bytes: get('/_profiler/%2e%2e%2f%2e%2e%2fpackage.json'),
    status: 404,
    profiled: true,
    says: () => 'Token "../../package.json" not found.',
  },
  {
    name: 'two Host headers',
    bytes: (host) => requestHead('GET /hello/a HTTP/1.1', [`Host: ${host}`, 'Host: evil.test']),
    status: 400,
    profiled: false,
    says: () => 'Bad Request: the request has more than one Host header.',
  },
  {
    name: 'no Host header in HTTP/1.1',
    bytes: () => requestHead('GET /hello/a HTTP/1.1', []),
    status: 400,
    profiled: false,
    says: () => 'Bad Request: an HTTP/1.1 request must have a Host header.',
  },
  {
    name: 'Content-Length together with Transfer-Encoding (request smuggling)',
    bytes: (host) =>
      requestHead('POST /contact HTTP/1.1', [`Host: ${host}`, 'Content-Length: 5', 'Transfer-Encoding: chunked']) +
      '0\r\n\r\n',
    status: 400,
    profiled: false,
    says: () => 'the Transfer-Encoding header cannot be accepted',
  },
  {
    name: 'two different Content-Length headers',
    bytes: (host) =>
      requestHead('POST /contact HTTP/1.1', [`Host: ${host}`, 'Content-Length: 1', 'Content-Length: 2']) + 'ab',
    status: 400,
    profiled: false,
    says: () => 'the Content-Length header is malformed or repeated',
  },
  {
    name: 'an unknown HTTP version',
    bytes: (host) => requestHead('GET / HTTP/7.1', [`Host: ${host}`]),
    status: 505,
    profiled: false,
    says: () => 'HTTP Version Not Supported: HTTP/7.1',
  },
];

/** What the answer says: the page text for HTML, the body for plain text. */
function textOf(answer: RawAnswer): string {
  return (answer.headers['content-type'] ?? '').startsWith('text/html') ? load(answer.body).root().text() : answer.body;
}

const test = suite('malformed requests over raw TCP get a clear answer, and the server keeps serving');
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

for (const c of CASES) {
  test(`when ${c.name}, then ${c.status} saying what is wrong${c.profiled ? ', profiled' : ''}, and the next request is served`, async () => {
    const answer = await sendRaw(t.base, c.bytes(t.host));
    assert.is(answer.status, c.status, `${c.name}: ${answer.body.slice(0, 300)}`);
    const text = textOf(answer);
    assert.ok(
      text.includes(c.says(t.host)),
      `${c.name}: expected ${JSON.stringify(c.says(t.host))} in ${JSON.stringify(text.slice(0, 400))}`,
    );
    let profile: Profile | null = null;
    if (c.profiled) {
      const token = answer.headers['x-debug-token'];
      assert.match(token ?? '', /^[0-9a-f]{6}$/, 'X-Debug-Token');
      profile = (await fetchProfileJson(t.base, token)) as Profile;
      assert.is(profile.token, token);
      assert.is(profile.status, c.status, 'the profile records the status sent');
    } else {
      assert.is(answer.headers['x-debug-token'], undefined, 'answered before the kernel: no profile token');
      assert.match(answer.headers['content-type'] ?? '', /^text\/plain/);
    }
    c.also?.(answer, profile);
    const next = await fetchText(`${t.base}/hello/next`);
    assert.is(next.status, 200, 'the server keeps serving');
    assert.match(next.headers['x-debug-token'] ?? '', /^[0-9a-f]{6}$/);
  });
}

test('when a malformed request is pipelined after a good one on a keep-alive connection, then the good one is answered first', async () => {
  const all = await sendRawUntilClose(
    t.base,
    requestHead('GET /hello/first HTTP/1.1', [`Host: ${t.host}`, 'Connection: keep-alive']) + 'BREW / HTTP/1.1\r\n\r\n',
  );
  const good = all.indexOf('HTTP/1.1 200 OK');
  const bad = all.indexOf('HTTP/1.1 501 Not Implemented');
  assert.ok(good === 0 && bad > good, all.replace(/<[^]*<\/html>/, '<html...>'));
  assert.match(all, /Hello first!/);
  assert.match(all, /the method "BREW" is not one this server knows/);
});

test.run();
