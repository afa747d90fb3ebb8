import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { sendRaw, startCountingServer, type CountingServer } from '../helpers/counting-server.js';
import { fetchProfileJson, serveForTest, type TestServer } from '../helpers/serve.js';

// The Host a request was recorded with is the client's word: a request to the server on A sent with
// `Host: 127.0.0.1:<B>` must not make replay send a developer's --header token, the body, and the
// profile fetch to B. Replay and export aim at the port the server answered on. B is a second real
// server that counts what it gets.

const test = suite(
  'app replay and export send a request recorded with a planted loopback Host to the server that answered it',
);
let dir: string;
let store: string;
let a: TestServer;
let b: CountingServer;
let aPort: number;
let planted: string;
const BODY = JSON.stringify({ name: 'ann', message: 'planted' });
const TOKEN_HEADER = 'Authorization: Bearer MY-REAL-DEV-TOKEN';

async function profiled(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<string> {
  const r = await sendRaw(a.base, { path, ...init, headers: { host: `127.0.0.1:${aPort}`, ...init.headers } });
  const token = r.headers['x-debug-token'] as string;
  assert.ok(token, `no token for ${path}: ${r.status}`);
  await fetchProfileJson(a.base, token);
  return token;
}

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-replay-planted-'));
  store = join(dir, 'store');
  b = await startCountingServer();
  a = await serveForTest({ store: store, root: dir });
  aPort = Number(new URL(a.base).port);
  planted = await profiled('/contact?page=2', {
    method: 'POST',
    body: BODY,
    headers: {
      host: `127.0.0.1:${b.port}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(BODY)),
    },
  });
});

test.after(async () => {
  await a?.stop();
  await b?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when a request came in on A with Host 127.0.0.1:<B>, then its profile records the address A answered on', async () => {
  const profile = await fetchProfileJson(a.base, planted);
  assert.is(profile.url, `http://127.0.0.1:${b.port}/contact?page=2`);
  assert.equal(profile.collectors.request.server, { address: '127.0.0.1', port: aPort });
});

test('when replayed without --target, then A gets the request, the --header token and the body, the new profile is fetched from A, and B gets nothing', async () => {
  const before = b.received.length;
  const r = await runApp(['replay', planted, '--json', '--diff', '--header', TOKEN_HEADER, '--store', store]);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.is(b.received.length, before, `B got ${JSON.stringify(b.received.slice(before))}`);
  const result = JSON.parse(r.stdout);
  assert.is(result.url, `${a.base}/contact?page=2`);
  assert.ok(result.diff, 'the new profile was fetched (from A: B got nothing)');
  const replayed = await fetchProfileJson(a.base, result.token);
  assert.ok(replayed.collectors.request.redacted.includes('header authorization'), 'A got the Authorization header');
  assert.is(replayed.collectors.request.body.text, BODY);
  assert.match(
    r.stderr,
    new RegExp(`origin replaced: recorded Host 127\\.0\\.0\\.1:${b.port}, sent to http://127\\.0\\.0\\.1:${aPort}`),
  );
});

test('when replayed with --target B, then B gets the request with the --header token', async () => {
  const before = b.received.length;
  const r = await runAppInProcess([
    'replay',
    planted,
    '--target',
    b.base,
    '--json',
    '--header',
    TOKEN_HEADER,
    '--store',
    store,
  ]);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout).url, `${b.base}/contact?page=2`);
  assert.is(b.received.length, before + 1);
  assert.is(b.received[before].url, '/contact?page=2');
  assert.is(b.received[before].headers.authorization, 'Bearer MY-REAL-DEV-TOKEN');
});

test('when the recorded path is "//127.0.0.1:<B>/x" or "/\\127.0.0.1:<B>/x", then replay sends that path to A, byte for byte, and B gets nothing', async () => {
  for (const path of [`//127.0.0.1:${b.port}/x?q=1`, `/\\127.0.0.1:${b.port}/x`]) {
    const token = await profiled(path);
    const before = b.received.length;
    const r = await runAppInProcess(['replay', token, '--json', '--store', store]);
    assert.is(r.code, 0, r.stderr);
    assert.is(b.received.length, before, `${path}: B got ${JSON.stringify(b.received.slice(before))}`);
    const result = JSON.parse(r.stdout);
    assert.is(result.url, `${a.base}${path}`);
    const replayed = await fetchProfileJson(a.base, result.token);
    assert.is(replayed.url, `${a.base}${path}`);
  }
});

test('when exported as curl and HAR, then both aim at A and say that the recorded Host was replaced', async () => {
  const note = `origin replaced: recorded Host 127.0.0.1:${b.port}, sent to http://127.0.0.1:${aPort}`;
  const curl = await runAppInProcess(['profiles', 'export', planted, '--curl', '--store', store]);
  assert.is(curl.code, 0, curl.stderr);
  const lines = curl.stdout.trim().split('\n');
  assert.ok(lines.includes(`# ${note}`), curl.stdout);
  assert.ok(lines[lines.length - 1].startsWith(`curl -X POST '${a.base}/contact?page=2'`), curl.stdout);
  assert.not.ok(curl.stdout.includes(`:${b.port}/`), curl.stdout);
  const har = await runAppInProcess(['profiles', 'export', planted, '--har', '--store', store]);
  assert.is(har.code, 0, har.stderr);
  const entry = JSON.parse(har.stdout).log.entries[0];
  assert.is(entry.request.url, `${a.base}/contact?page=2`);
  assert.ok(entry.comment.includes(note), entry.comment);
});

test.run();
