import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

// Required: `app replay <token> [--target <base url>] [--header "Name: value"]...` "sends the recorded request
// again (method, path, query, headers, body) ... to the running server (the recorded host, or --target), and
// prints the new status and token". replay-and-watch.test.ts replays a GET 404 to the recorded host; here a
// POST with a query, a header and a body, to the recorded host and to another server with --target.

const test = suite(
  'app replay sends the recorded method, path, query, headers and body, to the recorded host or --target',
);
let dir: string;
let storeA: string;
let a: TestServer;
let b: TestServer;
let token: string;
const BODY = JSON.stringify({ name: 'ann', message: 'hello again' });

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-replay-send-'));
  storeA = join(dir, 'store-a');
  a = await serveForTest({ store: storeA, root: dir });
  b = await serveForTest({ store: join(dir, 'store-b'), root: dir });
  const r = await fetchText(`${a.base}/contact?page=2&sort=name`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trace-id': 'trace-42' },
    body: BODY,
  });
  assert.is(r.status, 200);
  token = r.headers['x-debug-token'];
  await fetchProfileJson(a.base, token);
});

test.after(async () => {
  await a?.stop();
  await b?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function assertSameRequest(replayed: any, base: string): void {
  assert.is(replayed.method, 'POST');
  assert.is(replayed.url, `${base}/contact?page=2&sort=name`);
  const request = replayed.collectors.request;
  assert.equal(request.query, { page: '2', sort: 'name' });
  assert.is(request.headers['x-trace-id'], 'trace-42');
  assert.is(request.headers['content-type'], 'application/json');
  assert.equal({ text: request.body.text, size: request.body.size }, { text: BODY, size: Buffer.byteLength(BODY) });
  assert.is(replayed.collectors.router.route, 'contact');
}

test('when replayed without --target, then the recorded host gets the same method, path, query, headers and body, and the new status and token are printed', async () => {
  const r = await runApp(['replay', token, '--store', storeA]);
  assert.is(r.code, 0, r.stderr);
  const m = new RegExp(
    `^POST ${a.base.replace(/[.]/g, '\\.')}/contact\\?page=2&sort=name -> 200 \\(token ([0-9a-f]{6})\\)$`,
    'm',
  ).exec(r.stdout);
  assert.ok(m, r.stdout);
  assert.is.not(m![1], token);
  assertSameRequest(await fetchProfileJson(a.base, m![1]), a.base);
});

test('when replayed with --target, then the other server gets the request and holds the new profile; the recorded host does not', async () => {
  const r = await runAppInProcess(['replay', token, '--target', b.base, '--json', '--store', storeA]);
  assert.is(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.is(result.url, `${b.base}/contact?page=2&sort=name`);
  assert.is(result.status, 200);
  assert.equal(result.omitted, []);
  assertSameRequest(await fetchProfileJson(b.base, result.token), b.base);
  assert.is((await fetchText(`${a.base}/_profiler/${result.token}.json`)).status, 404);
});

test('when --header replaces a recorded header, then the new value is sent instead of the old one', async () => {
  const r = await runAppInProcess(['replay', token, '--header', 'X-Trace-Id: trace-43', '--json', '--store', storeA]);
  assert.is(r.code, 0, r.stderr);
  const replayed = await fetchProfileJson(a.base, JSON.parse(r.stdout).token);
  assert.is(replayed.collectors.request.headers['x-trace-id'], 'trace-43');
});

test('when --diff and the server behaves the same, then the comparison is printed and the exit code is 0', async () => {
  const r = await runAppInProcess(['replay', token, '--diff', '--store', storeA]);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /status\s+200\s+200/);
});

test('when the target cannot be reached, then a one-line error naming the URL, no stack trace, non-zero exit', async () => {
  const r = await runAppInProcess(['replay', token, '--target', 'http://127.0.0.1:9', '--store', storeA]);
  assert.ok(r.code !== 0);
  assert.match(r.stderr, /Cannot replay POST http:\/\/127\.0\.0\.1:9\/contact/);
  assert.not.match(r.stderr, /\n\s+at /);
});

test.run();
