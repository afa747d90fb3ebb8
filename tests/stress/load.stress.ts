import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';

const SECONDS = Number(process.env.STRESS_SECONDS ?? 30);
const CONNECTIONS = 100;
const PATHS = ['/', '/hello/world', '/robots.txt', '/contact', '/boom'];

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** autocannon passes the raw header names: find X-Debug-Token whatever its case. */
function debugToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'x-debug-token' && typeof value === 'string') return value;
  return undefined;
}

async function hammer(base: string, seconds: number, tokens?: string[]): Promise<autocannon.Result> {
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    requests: PATHS.map((path) => ({
      method: 'GET' as const,
      path,
      onResponse: (
        _status: number,
        _body: string,
        _context: object,
        headers?: Record<string, string | string[] | undefined>,
      ) => {
        const token = debugToken(headers ?? {});
        if (tokens && typeof token === 'string') tokens.push(token);
      },
    })),
  });
}

const test = suite(`load: ${CONNECTIONS} connections for ${SECONDS} s against the demo app, profiler on`);
let dir: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-stress-'));
  serve = await startServe(
    ['--store', join(dir, 'store'), '--no-watch', '--max-profiles', '10000000', '--max-store-mb', '4096'],
    { cwd: dir },
  );
});

test.after(async () => {
  if (serve.child.exitCode === null) await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when loaded, then no errors or timeouts, memory stays flat, and every returned token is loadable afterwards', async () => {
  await hammer(serve.base, 5);
  const before = rssMb(serve.child.pid!);
  const tokens: string[] = [];
  // RSS read every half second: one reading lands anywhere in a collection cycle, and the heaps grow
  // once under load to a size they then keep (docs/benchmarks.md, bench:memory)
  const readings: number[] = [];
  const reading = setInterval(() => readings.push(rssMb(serve.child.pid!)), 500);
  const result = await hammer(serve.base, SECONDS, tokens);
  await new Promise((done) => setTimeout(done, 2000));
  clearInterval(reading);
  const after = rssMb(serve.child.pid!);
  const third = Math.floor(readings.length / 3);
  const early = Math.max(...readings.slice(0, third));
  const late = Math.max(...readings.slice(-third));
  const code = await serve.stop();
  process.stdout.write(
    `${result.requests.total} requests, ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ` +
      `errors ${result.errors}, timeouts ${result.timeouts}; RSS ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after, ` +
      `at most ${early.toFixed(0)} MB in the run's first third and ${late.toFixed(0)} MB in its last\n`,
  );
  assert.is(code, 0, serve.output());
  assert.is(result.errors, 0, 'errors');
  assert.is(result.timeouts, 0, 'timeouts');
  assert.is(tokens.length, result.requests.total, 'every response carried a token');
  assert.ok(
    late < early * 1.25 + 32,
    `RSS grew from at most ${early.toFixed(0)} MB in the run's first third to ${late.toFixed(0)} MB in its last (${readings.map((mb) => mb.toFixed(0)).join(' ')})`,
  );

  const storage = await openFileStorage({ dir: join(dir, 'store') });
  try {
    const missing = tokens.filter((token) => !storage.has(token));
    assert.equal(missing.slice(0, 5), [], `${missing.length} of ${tokens.length} tokens not in the store`);
    for (let i = 0; i < tokens.length; i += Math.max(1, Math.floor(tokens.length / 500))) {
      const profile = await storage.read(tokens[i]);
      assert.is(profile?.token, tokens[i]);
    }
  } finally {
    await storage.close();
  }
});

test.run();
