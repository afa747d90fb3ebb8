import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../../core/app/app.js';
import { createAppKernel } from '../../../../server/kernel-factory.js';
import { HttpError } from '../../../../core/errors.js';
import { Request } from '../../../../core/http/request.js';
import { Response } from '../../../../core/http/response.js';
import { combinedRoutes } from '../../../../core/kernel/build-kernel.js';
import { buildProfile } from '../../../../core/profiler/build-profile.js';
import { liveTraceFacts } from '../../../../core/profiler/trace-facts.js';
import { ProfileHandoff } from '../../../../core/profiler/handoff/profile-handoff.js';
import type { Profile, ProfileSummary } from '../../../../core/profiler/profile.js';
import { profilerRoutes, WebProfiler } from '../../../../web-profiler/web-profiler.js';
import { summarize } from '../../../../core/profiler/storage/index-line.js';
import type { StoredEntry } from '../../../../core/profiler/storage/profile-storage.js';
import type { ProfileIntake } from '../../../../core/profiler/handoff/profile-intake.js';
import { fromStoredForm, toStoredForm } from '../../../../core/profiler/storage/stored-form.js';
import { readStoredEntry } from '../../../../core/profiler/storage/stored-profile-reader.js';
import { STORED_RECORD } from '../../../../core/profiler/stored-record.js';

/** The profile a store reads back from what the worker gave it (a stored record, built again, or a profile's JSON), as JSON. */
function readBack(stored: Buffer): string {
  const read = readStoredEntry(stored);
  if (!read.ok) throw new Error(read.problem);
  return JSON.stringify(read.profile);
}

// The differential test of the profiler's move to a worker thread: a corpus of generated requests is
// answered by a real kernel, and each profile the worker builds from the hand-off record must be the
// one the in-thread builder makes from the live Request and Response, field for field, as a store reads
// it back (its stored record, redacted where the policy changes it, built again), and with the same index summary.

const test = suite(
  'the profiler worker builds, from each hand-off record, the profile the main thread would have built',
);

const deny = {
  name: 'admin',
  path: '^/admin',
  check: (request: Request) =>
    request.header('authorization') === 'Bearer ok'
      ? (true as const)
      : { status: 401 as const, message: 'Sign in first.' },
};

/** The upstream server the outgoing calls go to, and a port nobody listens on; set as the test starts. */
let upstream = '';
let refused = '';

const app = createApp({ name: 'corpus' })
  .get('outgoing', '/outgoing/{id}', async ({ params }) => {
    const response = await fetch(`${upstream}/echo/${params.id}?token=tok-${params.id}-secret&page=2`, {
      method: params.id === '3' ? 'POST' : 'GET',
      body: params.id === '3' ? 'a body ✓' : undefined,
      headers: { authorization: `Bearer bearer-${params.id}-secret`, 'x-id': params.id },
    });
    return { upstream: await response.text() };
  })
  .get(
    'outgoing_node',
    '/outgoing-node',
    () =>
      new Promise((resolve, reject) => {
        get(`${upstream}/echo/node`, { headers: { cookie: 'sid=node-cookie-secret' } }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode }));
        }).on('error', reject);
      }),
  )
  .get('outgoing_refused', '/outgoing-refused', async () => {
    try {
      await fetch(`${refused}/nobody`);
      return { refused: false };
    } catch {
      return { refused: true };
    }
  })
  .get(
    'home',
    '/',
    () => '<!DOCTYPE html><html><head><title>Home</title></head><body><h1 id="t" class="a b">Home</h1></body></html>',
  )
  .get('post', '/posts/{id<\\d+>}', ({ params, log }) => {
    log.info('Showing post {id}.', {
      id: Number(params.id),
      tags: ['a', 'b'],
      nested: { deep: { deeper: [1, null, true] } },
    });
    return { id: Number(params.id), title: `Post ${params.id}` };
  })
  .get('page', '/pages/{page?1}', ({ params }) => `<html><body>page ${params.page}</body></html>`)
  .get('dir', '/dir/', () => 'dir')
  .post('echo', '/echo', ({ request, log }) => {
    log.warning('Echoing {size} bytes.', { size: request.body.length, password: 'p4ss', when: new Date(0) });
    return new Response(request.body, 200, {
      'Content-Type': request.header('content-type') ?? 'application/octet-stream',
    });
  })
  .get('throws', '/throws', () => {
    throw new Error('It broke.');
  })
  .get('caused', '/caused', () => {
    throw new HttpError(409, 'Conflict here.', {}, { cause: new TypeError('the inner cause') });
  })
  .get('late', '/late/{ms}', async ({ params }) => {
    await new Promise((resolve) => setTimeout(resolve, Number(params.ms)));
    return { waited: Number(params.ms) };
  })
  .get('cycle', '/cycle', ({ log }) => {
    const context: Record<string, unknown> = { name: 'loop' };
    context.self = context;
    log.error('A context that JSON cannot hold.', context);
    return 'ok';
  })
  .get('admin', '/admin', () => 'admin area')
  .guard(deny);

interface Case {
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** At least 200 requests over every way a request can go: matches, HEAD, 404 and 405, redirects, guards, logs, throws, bodies, secrets. */
function corpus(): Case[] {
  const cases: Case[] = [];
  const referers = [undefined, 'http://127.0.0.1:8000/from?token=abc123&x=1'];
  for (let i = 0; i < 20; i++) {
    const referer = referers[i % 2];
    const headers: Record<string, string> = {
      host: '127.0.0.1:8000',
      'user-agent': `corpus/${i}`,
      accept: i % 3 === 0 ? 'application/json' : 'text/html',
      ...(referer ? { referer } : {}),
    };
    cases.push(
      { method: 'GET', target: `/posts/${i}?page=${i}&api_key=k${i}&flag`, headers },
      { method: 'HEAD', target: `/posts/${i}`, headers },
      { method: 'GET', target: `/posts/abc${i}`, headers },
      { method: 'GET', target: `/nope/${i}.txt?q=${i}`, headers },
      { method: 'DELETE', target: '/echo', headers },
      { method: 'GET', target: `/pages/${i}/`, headers },
      { method: 'GET', target: '/dir', headers },
      { method: 'GET', target: '/admin', headers: { ...headers, ...(i % 2 ? { authorization: 'Bearer ok' } : {}) } },
      { method: 'GET', target: i % 2 ? '/throws' : '/caused', headers },
      {
        method: 'GET',
        target: `/late/${i % 3}`,
        headers: { ...headers, cookie: `sid=s${i}; theme=dark`, 'x-api-key': `key-${i}` },
      },
      {
        method: 'POST',
        target: '/echo',
        headers: { ...headers, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ user: `u${i}`, password: `pw${i}`, list: [1, 2, { token: 't' }] })),
      },
      {
        method: 'POST',
        target: '/echo',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from(`name=n${i}&secret=s${i}`),
      },
    );
  }
  const big = Buffer.alloc(40_000, 'x');
  const binary = Buffer.from(Array.from({ length: 5_000 }, (_, i) => (i * 37) % 256));
  cases.push(
    { method: 'POST', target: '/echo', headers: { host: 'localhost:8000', 'content-type': 'text/plain' }, body: big },
    {
      method: 'POST',
      target: '/echo',
      headers: { host: 'localhost:8000', 'content-type': 'application/octet-stream' },
      body: binary,
    },
    {
      method: 'POST',
      target: '/echo',
      headers: { host: 'localhost:8000', 'content-type': 'text/plain; charset=utf-8' },
      body: Buffer.from('café ✓ 😀 '.repeat(2_000)),
    },
    {
      method: 'POST',
      target: '/echo',
      headers: { host: 'localhost:8000', 'content-type': 'text/csv' },
      body: Buffer.from('name,password\nann,hunter2\n'),
    },
    { method: 'GET', target: '/cycle', headers: { host: 'localhost:8000' } },
    { method: 'GET', target: '/', headers: { host: 'localhost:8000' } },
    {
      method: 'GET',
      target: '/%F0%9F%98%80/caf%C3%A9?%C3%A9=%E2%82%AC',
      headers: { host: 'localhost:8000', 'x-note': 'Zoë ✓ \u0007' },
    },
    { method: 'GET', target: '/posts/%EF%BB%BF1', headers: { host: 'localhost:8000', referer: '\ufeffhttp://x/' } },
    { method: 'GET', target: '/pages/%EF%BB%BFp', headers: { host: 'localhost:8000' } },
    ...['1', '2', '3'].map((id) => ({ method: 'GET', target: `/outgoing/${id}`, headers: { host: 'localhost:8000' } })),
    { method: 'GET', target: '/outgoing-node', headers: { host: 'localhost:8000' } },
    { method: 'GET', target: '/outgoing-refused', headers: { host: 'localhost:8000' } },
  );
  return cases;
}

interface Built {
  json: string;
  summary: ProfileSummary;
  record: boolean;
}

test('when 200+ generated requests are handed to the worker, then each stored profile and summary equals the in-thread one', async () => {
  const server = createServer((request, response) => {
    const body = `echo ${request.url}`;
    response
      .writeHead(200, {
        'content-type': 'text/plain',
        'content-length': Buffer.byteLength(body),
        'set-cookie': ['a=cookie-secret-one', 'b=two'],
        'x-note': 'Zoë',
      })
      .end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
  refused = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((done) => closed.close(done));
  const built = new Map<string, Built>();
  const cancelled: string[] = [];
  const store = {
    announce: () => true,
    writeBatch: (entries: StoredEntry[]) => {
      for (const { json, summary } of entries)
        built.set(summary.token, { json: readBack(json), summary, record: json[0] === STORED_RECORD });
    },
    cancel: (token: string, reason: string) => void cancelled.push(`${token}: ${reason}`),
    has: () => false,
    nextToken: () => null,
  } as unknown as ProfileIntake;
  const kernel = createAppKernel(app, {
    debug: true,
    root: process.cwd(),
    profiler: new WebProfiler(store, (message) => cancelled.push(message)),
  });
  const routes = combinedRoutes(app, [{ routes: profilerRoutes() }]);
  const handoff = new ProfileHandoff(store, (message) => cancelled.push(message));
  const tableId = handoff.addRoutes(routes);

  const expected = new Map<string, Built>();
  const cases = corpus();
  assert.ok(cases.length >= 200, `${cases.length} cases`);
  for (const c of cases) {
    const request = new Request({
      method: c.method,
      target: c.target,
      headers: { ...(c.headers ?? {}) },
      body: c.body,
      clientIp: '127.0.0.1',
    });
    const response = await kernel.handle(request);
    const trace = kernel.traceOf(request);
    const profile: Profile = buildProfile(request, liveTraceFacts(request, trace), response, routes);
    handoff.submit(request, trace, response, tableId);
    const json = JSON.stringify(fromStoredForm(JSON.parse(JSON.stringify(toStoredForm(profile))) as Profile));
    expected.set(profile.token, { json, summary: summarize(profile), record: false });
  }
  handoff.flush();
  for (const deadline = Date.now() + 20_000; built.size + cancelled.length < expected.size && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await handoff.close();
  await new Promise((done) => server.close(done));

  assert.equal(cancelled, [], 'no profile was dropped');
  assert.is(built.size, expected.size);
  const statuses = new Set<number>();
  for (const [token, want] of expected) {
    const got = built.get(token);
    assert.ok(got, `profile ${token} came back`);
    assert.equal(
      JSON.parse(got!.json),
      JSON.parse(want.json),
      `profile ${token} (${want.summary.method} ${want.summary.url})`,
    );
    assert.equal(got!.summary, want.summary);
    statuses.add(want.summary.status);
  }
  for (const status of [200, 301, 401, 404, 405, 409, 500])
    assert.ok(statuses.has(status), `the corpus has a ${status}`);
  const records = [...built.values()].filter((b) => b.record);
  assert.is(
    records.length,
    built.size,
    'every request is stored as its record (redacted where need be), built again on reading',
  );
  assert.ok(
    records.some((b) => b.json.includes('[REDACTED]')),
    'the corpus has requests whose records were redacted (the equality above is not vacuous for them)',
  );
  const cyclic = [...built.values()]
    .map((b) => JSON.parse(b.json) as Profile)
    .flatMap((p) => p.collectors.log.records)
    .find((r) => r.message === 'A context that JSON cannot hold.');
  assert.is(cyclic?.context.self, '[circular]', 'a context with a cycle is kept, its cycle marked');
  const calls = [...built.values()].flatMap((b) => (JSON.parse(b.json) as Profile).collectors.http_client?.calls ?? []);
  assert.is(calls.length, 5, 'every outgoing call came across');
  assert.is(calls.filter((call) => call.error !== null).length, 1, 'the refused one with its error');
  assert.ok(calls.some((call) => call.client === 'node:http' && call.requestHeaders.cookie === '[REDACTED]'));
  assert.ok(
    calls.some((call) => call.method === 'POST' && call.requestHeaders['content-type'] === 'text/plain;charset=UTF-8'),
  );
});

test.run();
