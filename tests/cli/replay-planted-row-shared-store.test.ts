import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../core/profiler/profile.js';
import { openStorage } from '../../core/profiler/storage/open-storage.js';
import { profile200 } from '../core/profiler/fixtures.js';
import { runApp, runAppInProcess, startServe } from '../helpers/cli.js';
import { startCountingServer, type CountingServer } from '../helpers/counting-server.js';
import { fetchProfileJson, fetchText, serveForTest } from '../helpers/serve.js';
import { startTempPostgres, type TempPostgres } from '../helpers/temp-postgres.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';

// Whoever can write to a team's profile database can plant a row: a POST /steal dated ten years
// ahead, whose request panel says the server answered on a port where the attacker listens.
// Replay and export must not send a developer's header or the body there, nor aim a curl at it;
// a profile of the developer's own `app serve` on that store still replays without flags.

const test = suite(
  'app replay and export on a shared PostgreSQL store: a planted row cannot choose where a request goes',
);
let database: TempPostgres;
let dir: string;
let listener: CountingServer;
/** served in this process, then by the real bin once it restarts */
let server: { base: string; stop(): Promise<unknown> };
const PLANTED = 'dead01';
const TEN_YEARS = 10 * 365 * 86_400_000;

function planted(port: number): Profile {
  const p = profile200({ token: PLANTED, url: `http://127.0.0.1:${port}/steal`, time: Date.now() + TEN_YEARS });
  const request = { ...p.collectors.request, method: 'POST', path: '/steal', server: { address: '127.0.0.1', port } };
  return { ...p, method: 'POST', collectors: { ...p.collectors, request } };
}

test.before(async () => {
  database = await startTempPostgres();
  dir = mkdtempSync(join(tmpdir(), 'appkernel-planted-row-'));
  listener = await startCountingServer();
  const storage = await openStorage(database.url);
  storage.writeBatch([storedEntry(planted(listener.port))]);
  await storage.close();
  server = await serveForTest({ store: database.url, root: dir });
});

test.after(async () => {
  await server?.stop();
  await listener?.stop();
  rmSync(dir, { recursive: true, force: true });
  await database?.remove();
});

test('when the planted row is replayed with a real token, then the listener gets no request, only a bare identity check, and replay exits 1 naming --target', async () => {
  const r = await runAppInProcess([
    'replay',
    PLANTED,
    '--header',
    'Authorization: Bearer MY-REAL-DEV-TOKEN',
    '--store',
    database.url,
  ]);
  assert.is(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /Not sent: the profile dead01 names http:\/\/127\.0\.0\.1:\d+ as the server that recorded it.*--target/,
  );
  assert.equal(listener.received, []);
  assert.ok(listener.probes.length > 0, 'the listener was asked to prove itself');
  for (const probe of listener.probes) {
    assert.is(probe.method, 'GET');
    assert.is(probe.headers.authorization, undefined);
    assert.not.ok(JSON.stringify(probe.headers).includes('MY-REAL-DEV-TOKEN'));
  }
});

test('when the planted row is exported as curl or HAR, then nothing is printed and the export exits 1 naming --target', async () => {
  for (const format of ['--curl', '--har']) {
    const r = await runAppInProcess(['profiles', 'export', PLANTED, format, '--store', database.url]);
    assert.is(r.code, 1, `${format}: ${r.stdout}${r.stderr}`);
    assert.is(r.stdout, '');
    assert.match(r.stderr, /--target/);
  }
  assert.equal(listener.received, []);
});

test("when the developer names the listener with --target, then it gets the request: a choice, not the row's", async () => {
  const r = await runAppInProcess(['replay', PLANTED, '--target', listener.base, '--store', database.url]);
  assert.is(r.code, 0, r.stderr);
  assert.is(listener.received.length, 1);
  assert.is(listener.received[0].url, '/steal');
});

test("when a profile of the developer's own app serve on that store is replayed without flags, then it goes to that server", async () => {
  const token = (await fetchText(`${server.base}/hello/world?x=1`)).headers['x-debug-token'] as string;
  await fetchProfileJson(server.base, token);
  const r = await runAppInProcess(['replay', token, '--json', '--store', database.url]);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout).url, `${server.base}/hello/world?x=1`);
  assert.is(JSON.parse(r.stdout).status, 200);
});

test("when a server restarts on the same port and store, then yesterday's profile replays to it without flags", async () => {
  const token = (await fetchText(`${server.base}/hello/again`)).headers['x-debug-token'] as string;
  await fetchProfileJson(server.base, token);
  const port = new URL(server.base).port;
  await server.stop();
  server = await startServe(['--store', database.url, '--no-watch', '--port', port], { cwd: dir });
  const r = await runApp(['replay', token, '--json', '--store', database.url]);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout).status, 200);
});

test.run();
