import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { requestHead, sendRaw } from '../hardening/raw-http.js';
import { fetchProfileJson, fetchText, serveForTest, type Fetched, type TestServer } from '../helpers/serve.js';

const test = suite(
  'every answer under /_profiler carries a CSP with same-origin scripts only, nosniff, no-referrer and no-store; app pages keep the debug headers',
);
let t: TestServer;
let token: string;

test.before(async () => {
  t = await serveForTest();
  token = (await fetchText(`${t.base}/robots.txt`)).headers['x-debug-token'];
  await fetchProfileJson(t.base, token);
});
test.after(async () => {
  await t.stop();
});

/** The CSP as directive -> sources. */
function csp(r: Fetched): Map<string, string[]> {
  const header = r.headers['content-security-policy'];
  assert.type(header, 'string', 'no Content-Security-Policy');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

function assertSecured(r: Fetched, what: string): void {
  const policy = csp(r);
  assert.equal(policy.get('default-src'), ["'none'"], what);
  const scripts = policy.get('script-src') ?? policy.get('default-src')!;
  // The search page's one script is a file of this origin: 'self', never inline, nothing from elsewhere.
  assert.equal(scripts, ["'self'"], `${what}: script-src ${scripts.join(' ')}`);
  assert.equal(policy.get('connect-src'), ["'self'"], `${what}: connect-src (the live search's event stream)`);
  assert.equal(policy.get('img-src'), ["'self'", 'data:'], what);
  assert.equal(policy.get('frame-ancestors'), ["'none'"], what);
  assert.equal(policy.get('base-uri'), ["'none'"], what);
  assert.equal(policy.get('form-action'), ["'self'"], what);
  assert.ok(!(policy.get('style-src') ?? []).some((source) => source === '*' || /^https?:/.test(source)), what);
  assert.is(r.headers['x-content-type-options'], 'nosniff', what);
  assert.is(r.headers['referrer-policy'], 'no-referrer', what);
  assert.is(r.headers['cache-control'], 'no-store', what);
}

const PAGES: [string, string, number][] = [
  ['search page', '/_profiler/search?limit=10', 200],
  ['profile page', `/_profiler/${'TOKEN'}`, 200],
  ['exception panel', `/_profiler/${'TOKEN'}?panel=exception&type=request`, 200],
  ['profile JSON', `/_profiler/${'TOKEN'}.json`, 200],
  ['latest JSON', '/_profiler/latest.json', 200],
  ['unknown token 404', '/_profiler/abcdef', 404],
  ['malformed token 404', '/_profiler/..%2f..%2fetc', 404],
  ['unknown panel 404', `/_profiler/${'TOKEN'}?panel=nope`, 404],
  ['/_profiler redirect', '/_profiler', 301],
  ['/_profiler/ redirect', '/_profiler/', 302],
];

for (const [what, path, status] of PAGES) {
  test(`when the ${what} is asked for, then it is ${status} with the profiler's security headers`, async () => {
    const r = await fetchText(`${t.base}${path.replace('TOKEN', token)}`);
    assert.is(r.status, status);
    assertSecured(r, what);
  });
}

test('when a profiler page is asked for with HEAD or POST, then the 200 or 405 carries them too', async () => {
  const head = await fetchText(`${t.base}/_profiler/${token}`, { method: 'HEAD' });
  assert.is(head.status, 200);
  assertSecured(head, 'HEAD');
  const post = await fetchText(`${t.base}/_profiler/${token}`, { method: 'POST' });
  assert.is(post.status, 405);
  assertSecured(post, 'POST');
});

test('when an app page or its 404 is asked for, then it has no profiler CSP and keeps Cache-Control: no-cache, private', async () => {
  for (const path of ['/', '/robots.txt', '/_profilerx']) {
    const r = await fetchText(`${t.base}${path}`);
    assert.is(r.headers['content-security-policy'], undefined, path);
    assert.is(r.headers['cache-control'], 'no-cache, private', path);
  }
});

test('when the adapter refuses a request target or node refuses a request line, then the plain-text 400 carries nosniff', async () => {
  const target = await sendRaw(t.base, requestHead('GET nowhere HTTP/1.1', [`Host: ${new URL(t.base).host}`]));
  assert.is(target.status, 400);
  assert.match(target.headers['content-type'], /^text\/plain/);
  assert.is(target.headers['x-content-type-options'], 'nosniff');
  const parser = await sendRaw(t.base, 'GET / HTTX/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  assert.is(parser.status, 400);
  assert.match(parser.headers['content-type'], /^text\/plain/);
  assert.is(parser.headers['x-content-type-options'], 'nosniff');
});

test.run();
