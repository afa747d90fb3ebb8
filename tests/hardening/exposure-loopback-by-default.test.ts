import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

// exposure-non-loopback-host.test.ts covers an explicit --host; here: no --host at all.

/** Resolves to the socket error code, or 'connected'. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('timeout');
    }, 2_000);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code ?? 'error');
    });
  });
}

/** The machine's own addresses that are not loopback (none on an isolated machine). */
function ownNonLoopbackAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal && a.family === 'IPv4')
    .map((a) => a.address);
}

const test = suite('app serve without --host listens on loopback only, with the profiler on (real bin)');
let dir: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-loopback-'));
  serve = await startServe(['--store', join(dir, 'store'), '--no-watch'], { cwd: dir });
});
test.after(async () => {
  await serve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when no --host is given, then it says it serves at 127.0.0.1, with the profiler, and without an exposure warning', async () => {
  assert.is(new URL(serve.base).hostname, '127.0.0.1', serve.output());
  assert.not.match(serve.output(), /warning/i);
  const r = await fetchText(`${serve.base}/hello/world`);
  assert.is(r.status, 200);
  assert.match(r.headers['x-debug-token'] ?? '', /^[0-9a-f]{6}$/);
});

test('when the machine has a non-loopback address, then the port is not reachable on it', async () => {
  const port = Number(new URL(serve.base).port);
  for (const address of ownNonLoopbackAddresses()) {
    assert.is.not(await tryConnect(address, port), 'connected', `the profiler is reachable on ${address}:${port}`);
  }
});

test('when --help is asked for, then the default host shown is 127.0.0.1', async () => {
  const r = await runApp(['serve', '--help'], { cwd: dir });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /--host <host>[^\n]*\(default: "127\.0\.0\.1"\)/);
});

test.run();
