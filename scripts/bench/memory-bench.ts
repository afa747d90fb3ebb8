// bench:memory — resident memory of `app serve` with the profiler on, after 50,000 and after 150,000
// requests (the demo app's mix of 200s, 404s, 405s and 500s), under the default store bounds.
// Goal (issue 7): within 10% between the two.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { startContender } from './contender.js';

const PATHS = ['/', '/hello/world', '/robots.txt', '/contact', '/boom'];
const FIRST = Number(process.env.BENCH_FIRST ?? 50_000);
const TOTAL = Number(process.env.BENCH_TOTAL ?? 150_000);

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

async function send(base: string, amount: number): Promise<void> {
  const result = await autocannon({ url: base, connections: 20, amount, requests: PATHS.map((path) => ({ method: 'GET' as const, path })) });
  if (result.errors + result.timeouts > 0) throw new Error(`${result.errors} errors, ${result.timeouts} timeouts`);
}

const store = mkdtempSync(join(tmpdir(), 'appkernel-memory-bench-'));
const dist = resolve(process.cwd(), 'dist');
const running = await startContender({
  name: 'app serve', command: [process.execPath, join(dist, 'cli/bin.js'), 'serve', '--port', '0', '--no-watch', '--store', join(store, 'profiles')],
});
try {
  const pid = running.child.pid!;
  await send(running.base, FIRST);
  await new Promise((done) => setTimeout(done, 1000));
  const first = rssMb(pid);
  await send(running.base, TOTAL - FIRST);
  await new Promise((done) => setTimeout(done, 1000));
  const last = rssMb(pid);
  const growth = last / first - 1;
  console.log(`app serve, profiler on, default store bounds (10,000 profiles, 200 MB)`);
  console.log(`RSS after ${FIRST.toLocaleString('en')} requests: ${first.toFixed(0)} MB`);
  console.log(`RSS after ${TOTAL.toLocaleString('en')} requests: ${last.toFixed(0)} MB (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%, goal within ±10%: ${Math.abs(growth) <= 0.1 ? 'ok' : 'MISSED'})`);
} finally {
  await running.stop();
  rmSync(store, { recursive: true, force: true });
}
