import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AppError } from '../../core/errors.js';
import type { Profile } from '../../core/profiler/profile.js';
import { replay } from '../../core/profiler/replay.js';
import { replayableRequest } from '../../core/profiler/export-request.js';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { startCountingServer, type CountingServer } from '../helpers/counting-server.js';
import { profile200 } from '../core/profiler/fixtures.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';

// Profiles planted in the store, as a server that refuses foreign Hosts could no longer record them:
// one with a foreign Host and the address its server answered on, and ones stored before that address
// was recorded. A and B are two real servers that count what they get; evil.example is never asked.

const test = suite('app replay and export: the origin of a stored profile (foreign Host, old profiles, --target)');
let dir: string;
let store: string;
let a: CountingServer;
let b: CountingServer;

function withServer(p: Profile, server: { address: string; port: number } | undefined): Profile {
  const request = { ...p.collectors.request };
  if (server) request.server = server;
  else delete request.server;
  return { ...p, collectors: { ...p.collectors, request } };
}

const FOREIGN = 'a0a0a1';
const OLD_FOREIGN = 'a0a0a2';
const OLD_LOOPBACK = 'a0a0a3';
const FOREIGN_V6 = 'a0a0a4';
const v6Profile = withServer(profile200({ token: FOREIGN_V6, url: 'http://evil.example/hello/world', seed: 4 }), {
  address: '::1',
  port: 8741,
});

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-replay-origin-'));
  store = join(dir, 'store');
  a = await startCountingServer({ provesInstance: true });
  b = await startCountingServer({ provesInstance: true });
  const storage = await openFileStorage({ dir: store });
  storage.writeBatch([
    storedEntry(
      withServer(profile200({ token: FOREIGN, url: `http://evil.example:${b.port}/hello/world?page=2`, seed: 1 }), {
        address: '127.0.0.1',
        port: a.port,
      }),
    ),
  ]);
  storage.writeBatch([
    storedEntry(
      withServer(
        profile200({ token: OLD_FOREIGN, url: `http://evil.example:${b.port}/hello/world`, seed: 2 }),
        undefined,
      ),
    ),
  ]);
  storage.writeBatch([
    storedEntry(
      withServer(
        profile200({ token: OLD_LOOPBACK, url: `http://127.0.0.1:${b.port}/hello/world`, seed: 3 }),
        undefined,
      ),
    ),
  ]);
  storage.writeBatch([storedEntry(v6Profile)]);
  await storage.close();
});

test.after(async () => {
  await a?.stop();
  await b?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function counts(): [number, number] {
  return [a.received.length, b.received.length];
}

test('when a profile with Host evil.example:<B> and server address A is replayed, then A gets the path and query, B nothing, and stderr names the replaced Host', async () => {
  const [sa, sb] = counts();
  const r = await runApp([
    'replay',
    FOREIGN,
    '--json',
    '--header',
    'Authorization: Bearer MY-REAL-DEV-TOKEN',
    '--store',
    store,
  ]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(counts(), [sa + 1, sb]);
  assert.is(a.received[sa].url, '/hello/world?page=2');
  assert.is(a.received[sa].headers.authorization, 'Bearer MY-REAL-DEV-TOKEN');
  assert.is(a.received[sa].headers.host, `127.0.0.1:${a.port}`);
  const result = JSON.parse(r.stdout);
  assert.is(result.url, `${a.base}/hello/world?page=2`);
  assert.is(result.originReplaced, `origin replaced: recorded Host evil.example:${b.port}, sent to ${a.base}`);
  assert.match(
    r.stderr,
    new RegExp(`origin replaced: recorded Host evil\\.example:${b.port}, sent to http://127\\.0\\.0\\.1:${a.port}`),
  );
});

test('when that profile is exported, then curl and HAR aim at A and say the recorded Host was replaced', async () => {
  const note = `origin replaced: recorded Host evil.example:${b.port}, sent to ${a.base}`;
  const curl = await runAppInProcess(['profiles', 'export', FOREIGN, '--curl', '--store', store]);
  assert.is(curl.code, 0, curl.stderr);
  assert.ok(curl.stdout.split('\n').includes(`# ${note}`), curl.stdout);
  assert.match(curl.stdout, new RegExp(`^curl -X GET '${a.base}/hello/world\\?page=2'`, 'm'));
  assert.not.ok(curl.stdout.trim().split('\n').pop()!.includes('evil.example'), curl.stdout);
  const har = JSON.parse((await runAppInProcess(['profiles', 'export', FOREIGN, '--har', '--store', store])).stdout).log
    .entries[0];
  assert.is(har.request.url, `${a.base}/hello/world?page=2`);
  assert.ok(har.comment.includes(note), har.comment);
});

test('when the server answered on ::1, then the request is aimed at [::1] on its port', () => {
  assert.is(replayableRequest(v6Profile).origin, 'http://[::1]:8741');
});

test('when an old profile (no server address) names a foreign Host, then replay and export refuse, ask for --target, exit 1, and nothing is sent', async () => {
  const before = counts();
  for (const args of [
    ['replay', OLD_FOREIGN],
    ['profiles', 'export', OLD_FOREIGN, '--curl'],
    ['profiles', 'export', OLD_FOREIGN, '--har'],
  ]) {
    const r = await runAppInProcess([...args, '--store', store]);
    assert.is(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /Host "evil\.example:\d+", which is not loopback.*--target/, r.stderr);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.is(r.stdout, '');
  }
  assert.equal(counts(), before);
});

test('when an old profile names a foreign Host and --target is given, then the target gets the request and the export aims at it', async () => {
  const [sa, sb] = counts();
  const r = await runAppInProcess(['replay', OLD_FOREIGN, '--target', a.base, '--json', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(counts(), [sa + 1, sb]);
  assert.is(a.received[sa].url, '/hello/world');
  const curl = await runAppInProcess([
    'profiles',
    'export',
    OLD_FOREIGN,
    '--curl',
    '--target',
    `${a.base}/`,
    '--store',
    store,
  ]);
  assert.is(curl.code, 0, curl.stderr);
  assert.match(curl.stdout, new RegExp(`^curl -X GET '${a.base}/hello/world'`, 'm'));
});

test('when an old profile names a loopback Host, then it is replayed to that recorded origin (B here), unchanged', async () => {
  const [sa, sb] = counts();
  const r = await runAppInProcess(['replay', OLD_LOOPBACK, '--json', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(counts(), [sa, sb + 1]);
  assert.is(JSON.parse(r.stdout).url, `${b.base}/hello/world`);
  assert.not.match(r.stderr, /origin replaced/);
});

test('when --target is not an http(s) URL without query, fragment or credentials, then replay and export stop with a usage error, exit 2, and nothing is sent', async () => {
  const before = counts();
  for (const target of [
    `${a.base}/api?x=1`,
    `${a.base}?x=1`,
    `http://user:pw@127.0.0.1:${a.port}`,
    `ftp://127.0.0.1:${a.port}`,
    '127.0.0.1:8741',
    `${a.base}#x`,
  ]) {
    for (const args of [
      ['replay', FOREIGN],
      ['profiles', 'export', FOREIGN, '--curl'],
    ]) {
      const r = await runAppInProcess([...args, '--target', target, '--store', store]);
      assert.is(r.code, 2, `${args[0]} ${target}: ${r.stderr}`);
      assert.match(r.stderr, /Invalid --target ".*": expected an http\(s\) URL/);
    }
  }
  assert.equal(counts(), before);
});

test('when the replay() API is given no target, then it sends to the recorded server address and says what it replaced; a bad target is APP_ERR_REPLAY', async () => {
  const storage = await openFileStorage({ dir: store });
  const profile = (await storage.read(FOREIGN))!;
  const old = (await storage.read(OLD_FOREIGN))!;
  await storage.close();
  const [sa, sb] = counts();
  const result = await replay(profile);
  assert.equal(counts(), [sa + 1, sb]);
  assert.is(result.url, `${a.base}/hello/world?page=2`);
  assert.is(result.originReplaced, `origin replaced: recorded Host evil.example:${b.port}, sent to ${a.base}`);
  const refused = (e: unknown) => e instanceof AppError && e.code === 'APP_ERR_REPLAY';
  await replay(old).then(
    () => assert.unreachable('an old foreign profile was replayed'),
    (e) => assert.ok(refused(e), String(e)),
  );
  await replay(profile, { target: `${a.base}/x?y=1` }).then(
    () => assert.unreachable('a target with a query was used'),
    (e) => assert.ok(refused(e), String(e)),
  );
  assert.equal(counts(), [sa + 1, sb]);
});

test.run();
