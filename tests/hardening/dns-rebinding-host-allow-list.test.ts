import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { waitFor } from '../helpers/poll.js';
import { requestHead, sendRaw, type RawAnswer } from './raw-http.js';

/** GET `path` with exactly this Host line (null: none), on HTTP/1.1 unless told. */
function getWithHost(t: TestServer, path: string, host: string | null, version = 'HTTP/1.1'): Promise<RawAnswer> {
  return sendRaw(t.base, requestHead(`GET ${path} ${version}`, host === null ? [] : [`Host: ${host}`]));
}

/** Sends one profiled request with a good Host and waits for its profile: the count of profiles written meanwhile is then exact. */
async function profilesWrittenDuring(t: TestServer, work: () => Promise<void>): Promise<number> {
  const storage = t.server.storage!;
  await storage.flush();
  const before = storage.stats().profiles;
  await work();
  const token = (await fetchText(`${t.base}/robots.txt`)).headers['x-debug-token'];
  assert.ok(await waitFor(() => storage.has(token), 10_000), 'the marker profile is stored');
  await storage.flush();
  return storage.stats().profiles - before - 1;
}

const MALFORMED = [
  'a@b',
  'user:pw@127.0.0.1',
  'a b',
  '127.0.0.1:80:80',
  '[::1',
  'localhost:http',
  'localhost:99999',
  '',
  'localhost/x',
];

const debug = suite(
  'debug mode: a Host outside localhost, 127.0.0.1, [::1], --host and --allow-host is answered 421 and reaches nothing',
);
let t: TestServer;
let port: string;
let token: string;

debug.before(async () => {
  t = await serveForTest({ allowedHosts: ['MyApp.test'] });
  port = new URL(t.base).port;
  token = (await fetchText(`${t.base}/robots.txt`)).headers['x-debug-token'];
  await fetchProfileJson(t.base, token);
});
debug.after(async () => {
  await t.stop();
});

debug(
  'when a rebinding Host asks for /_profiler/latest.json, /_profiler/<token> and /_profiler/, then each is a 421 naming the Host, the accepted names and --allow-host, with no profile and no redirect',
  async () => {
    const written = await profilesWrittenDuring(t, async () => {
      for (const path of [
        '/_profiler/latest.json',
        `/_profiler/${token}`,
        `/_profiler/${token}.json`,
        '/_profiler/',
        '/_profiler',
        '/',
        '/hello/world/',
      ]) {
        const r = await getWithHost(t, path, `evil.example:${port}`);
        assert.is(r.status, 421, path);
        assert.match(r.headers['content-type'], /^text\/plain/);
        assert.is(r.headers['x-content-type-options'], 'nosniff');
        assert.is(r.headers.location, undefined, `${path} redirects`);
        assert.is(r.headers['x-debug-token'], undefined, `${path} reached the kernel`);
        assert.ok(r.body.includes(`"evil.example:${port}"`), r.body);
        assert.ok(r.body.includes('localhost, 127.0.0.1, [::1], myapp.test (any port)'), r.body);
        assert.ok(r.body.includes('--allow-host'), r.body);
        assert.not.ok(r.body.includes(token), `${path} leaks the token`);
        assert.is(r.body.trim().split('\n').length, 1);
      }
    });
    assert.is(written, 0, 'profiles written for refused requests');
  },
);

debug('when the Host is a loopback name on any port, in any case, then the profiler answers', async () => {
  for (const host of [
    'localhost',
    `localhost:${port}`,
    'LOCALHOST:1',
    '127.0.0.1',
    `127.0.0.1:${port}`,
    '[::1]',
    '[::1]:8000',
  ]) {
    const r = await getWithHost(t, '/_profiler/latest.json', host);
    assert.is(r.status, 200, host);
    assert.ok(JSON.parse(r.body).token, host);
  }
});

debug(
  'when the Host is a name given with --allow-host, in another case and port, then it is served and its redirects stay absolute',
  async () => {
    const json = await getWithHost(t, `/_profiler/${token}.json`, 'myapp.TEST:9999');
    assert.is(json.status, 200);
    const home = await getWithHost(t, '/_profiler/', 'myapp.TEST:9999');
    assert.is(home.status, 302);
    assert.is(home.headers.location, 'http://myapp.TEST:9999/_profiler/search?limit=10');
    const slash = await getWithHost(t, '/hello/world/', `localhost:${port}`);
    assert.is(slash.status, 301);
    assert.is(slash.headers.location, `http://localhost:${port}/hello/world`);
  },
);

debug(
  'when a Host is malformed (userinfo, space, two ports, unbalanced [, non-numeric port, empty, a path), then it is a 400 naming it, unprofiled',
  async () => {
    const written = await profilesWrittenDuring(t, async () => {
      for (const host of MALFORMED) {
        const r = await getWithHost(t, '/_profiler/latest.json', host);
        assert.is(r.status, 400, JSON.stringify(host));
        assert.is(r.headers['x-content-type-options'], 'nosniff');
        assert.ok(r.body.startsWith(`Bad Request: the Host header ${JSON.stringify(host)} is not a host name`), r.body);
      }
    });
    assert.is(written, 0);
  },
);

debug('when an HTTP/1.0 request has no Host, then it is served as before', async () => {
  const r = await getWithHost(t, '/hello/world', null, 'HTTP/1.0');
  assert.is(r.status, 200);
  assert.match(r.headers['x-debug-token'] ?? '', /^[0-9a-f]{6}$/);
});

debug.run();

// ---

const production = suite(
  '--no-debug: every Host is served, malformed ones excepted, and a redirect never points at a foreign one',
);
let p: TestServer;

production.before(async () => {
  p = await serveForTest({ debug: false });
});
production.after(async () => {
  await p.stop();
});

production(
  'when the Host is foreign, then the trailing-slash 301 has a path-only Location and a body naming no host',
  async () => {
    const r = await getWithHost(p, '/hello/world/?a=1', 'evil.example:8741');
    assert.is(r.status, 301);
    assert.is(r.headers.location, '/hello/world?a=1');
    assert.not.ok(r.body.includes('evil.example'));
    assert.is((await getWithHost(p, '/', 'evil.example')).status, 200);
  },
);

production('when the Host is loopback, then the trailing-slash 301 keeps its absolute Location', async () => {
  const host = new URL(p.base).host;
  const r = await getWithHost(p, '/hello/world/', host);
  assert.is(r.status, 301);
  assert.is(r.headers.location, `http://${host}/hello/world`);
});

production('when a Host is malformed, then it is a 400 here too', async () => {
  for (const host of MALFORMED) {
    const r = await getWithHost(p, '/', host);
    assert.is(r.status, 400, JSON.stringify(host));
    assert.is(r.headers['x-content-type-options'], 'nosniff');
    assert.match(r.body, /^Bad Request: the Host header /);
  }
});

production.run();
