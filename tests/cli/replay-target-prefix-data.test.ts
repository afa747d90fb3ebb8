import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { startCountingServer, type CountingServer } from '../helpers/counting-server.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

// replay --target: a usage error naming the option when it is not an http(s) URL, its path kept as a
// prefix; --diff against another server ignores the origin quoted in messages; --data/--data-file.
const test = suite(
  'app replay: --target checked and its path kept, --diff across origins, --data and --data-file (real servers; the real bin sends --data)',
);
let dir: string;
let store: string;
let a: TestServer;
let b: TestServer;
let counting: CountingServer;
let notFound: string;
let hello: string;
let contact: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-replay-target-'));
  store = join(dir, 'store');
  [a, b, counting] = await Promise.all([
    serveForTest({ store, root: dir }),
    serveForTest({ store: join(dir, 'other-store'), root: dir }),
    startCountingServer(),
  ]);
  notFound = (await fetchText(`${a.base}/robots.txt`)).headers['x-debug-token'];
  hello = (await fetchText(`${a.base}/hello/ann?page=2`)).headers['x-debug-token'];
  contact = (
    await fetchText(`${a.base}/contact`, {
      method: 'POST',
      body: '{"name":"ann","password":"hunter2"}',
      headers: { 'content-type': 'application/json' },
    })
  ).headers['x-debug-token'];
  for (const token of [notFound, hello, contact]) await fetchProfileJson(a.base, token);
});

test.after(async () => {
  await Promise.all([a.stop(), b.stop(), counting.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

test('when --target has no scheme or another scheme, then a usage error naming --target, exit 2, nothing sent', async () => {
  for (const target of ['127.0.0.1:8731', 'ftp://x', `${counting.base}/x?y=1`]) {
    const r = await runAppInProcess(['replay', hello, '--target', target, '--store', store]);
    assert.is(r.code, 2, `${target}: ${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(`^app: Invalid --target "${target.replace(/[.?]/g, '\\$&')}": expected an http\\(s\\) URL`, 'm'),
    );
  }
  assert.is(counting.received.length, 0);
});

test('when --target has a path, then the recorded path and query are sent under it (replay and curl alike)', async () => {
  const r = await runAppInProcess(['replay', hello, '--target', `${counting.base}/base/`, '--json', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.is(counting.received.at(-1)?.url, '/base/hello/ann?page=2');
  assert.is(JSON.parse(r.stdout).url, `${counting.base}/base/hello/ann?page=2`);
  const curl = await runAppInProcess([
    'profiles',
    'export',
    hello,
    '--curl',
    '--target',
    `${counting.base}/base`,
    '--store',
    store,
  ]);
  assert.match(curl.stdout, new RegExp(`^curl -X GET '${counting.base}/base/hello/ann\\?page=2'`, 'm'));
});

test('when --target has a path the server does not serve, then the new profile is fetched where the server links it (X-Debug-Token-Link), only with --diff', async () => {
  const list = [
    'profiles',
    'list',
    '--json',
    '--include-profiler',
    '--limit',
    '100',
    '--store',
    join(dir, 'other-store'),
  ];
  const profileFetches = async () =>
    (JSON.parse((await runAppInProcess(list)).stdout) as { url: string }[]).filter((p) => p.url.endsWith('.json'))
      .length;
  const before = await profileFetches();
  const plain = await runAppInProcess(['replay', hello, '--target', `${b.base}/base`, '--store', store]);
  assert.is(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /\/base\/hello\/ann\?page=2 -> 404 \(token [0-9a-f]{6}\)/);
  assert.is(await profileFetches(), before, 'no profile asked for without --diff');
  const started = Date.now();
  const diff = await runAppInProcess([
    'replay',
    hello,
    '--target',
    `${b.base}/base`,
    '--diff',
    '--wide',
    '--store',
    store,
  ]);
  assert.ok(Date.now() - started < 4_000, "no polling of a path that is no profile's");
  assert.is(diff.code, 1, diff.stderr);
  assert.match(diff.stdout, /^≠ +status +200 +404 *$/m);
  assert.is(await profileFetches(), before + 1);
});

test('when a 404 is replayed to another server with --diff, then the origin in its message is not a difference', async () => {
  const r = await runAppInProcess(['replay', notFound, '--target', b.base, '--diff', '--wide', '--store', store]);
  assert.is(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /The profiles agree\./);
  const json = JSON.parse(
    (await runAppInProcess(['replay', notFound, '--target', b.base, '--diff', '--json', '--store', store])).stdout,
  );
  const messages = json.diff.rows.find((row: { field: string }) => row.field === 'exception messages');
  assert.is(messages.same, true, JSON.stringify(messages));
  assert.ok(messages.a.includes(a.base), 'the recorded message quotes the recording server');
});

test('when the recorded body was redacted, then plain replay refuses naming --data, and --data or --data-file sends one', async () => {
  const without = await runAppInProcess(['replay', contact, '--json', '--store', store]);
  assert.is(without.code, 1, without.stdout);
  assert.match(without.stderr, /--data or --data-file/);
  const data = await runApp([
    'replay',
    contact,
    '--data',
    '{"name":"bob","password":"again"}',
    '--json',
    '--store',
    store,
  ]);
  assert.is(data.code, 0, data.stderr);
  const sent = JSON.parse(data.stdout);
  assert.is(sent.bodyIncomplete, null);
  const replayed = await fetchProfileJson(a.base, sent.token);
  assert.is(replayed.collectors.request.body.size, Buffer.byteLength('{"name":"bob","password":"again"}'));
  assert.match(replayed.collectors.request.body.text, /"name":"bob"/);
  const file = join(dir, 'body.json');
  writeFileSync(file, '{"name":"cy"}');
  const fromFile = await runAppInProcess(['replay', contact, '--data-file', file, '--json', '--store', store]);
  assert.is(fromFile.code, 0, fromFile.stderr);
  assert.match(
    (await fetchProfileJson(a.base, JSON.parse(fromFile.stdout).token)).collectors.request.body.text,
    /"name":"cy"/,
  );
});

test('when --data-file is missing or given with --data, then a one-line usage error, exit 2', async () => {
  const missing = await runAppInProcess(['replay', contact, '--data-file', join(dir, 'nope.json'), '--store', store]);
  assert.is(missing.code, 2);
  assert.match(missing.stderr, /^app: Cannot read --data-file ".*nope\.json": no such file\.$/m);
  const both = await runAppInProcess([
    'replay',
    contact,
    '--data',
    'x',
    '--data-file',
    join(dir, 'body.json'),
    '--store',
    store,
  ]);
  assert.is(both.code, 2);
  assert.match(both.stderr, /--data.*--data-file/);
});

test.run();
