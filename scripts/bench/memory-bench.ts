// bench:memory — resident memory of `app serve` with the profiler on, read every 10,000 requests
// up to 150,000 (the demo app's mix of 200s, 404s, 405s and 500s), under the default store bounds.
// Goal: flat within 10% between 50,000 and 150,000 requests. A single reading lands
// anywhere in V8's collection cycle, so the figure compared is the spread of all the readings
// from 50,000 on (highest over lowest), not two of them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { startContender } from './contender.js';

const PATHS = ['/', '/hello/world', '/robots.txt', '/contact', '/boom'];
const FIRST = Number(process.env.BENCH_FIRST ?? 50_000);
const TOTAL = Number(process.env.BENCH_TOTAL ?? 150_000);
const STEP = Number(process.env.BENCH_STEP ?? 10_000);

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

async function send(base: string, amount: number): Promise<void> {
  const result = await autocannon({
    url: base,
    connections: 20,
    amount,
    requests: PATHS.map((path) => ({ method: 'GET' as const, path })),
  });
  if (result.errors + result.timeouts > 0) throw new Error(`${result.errors} errors, ${result.timeouts} timeouts`);
}

const store = mkdtempSync(join(tmpdir(), 'appkernel-memory-bench-'));
const dist = resolve(process.cwd(), 'dist');
const running = await startContender({
  name: 'app serve',
  command: [
    process.execPath,
    join(dist, 'cli/bin.js'),
    'serve',
    '--port',
    '0',
    '--no-watch',
    '--store',
    join(store, 'profiles'),
  ],
});
try {
  const pid = running.child.pid!;
  const readings: { sent: number; mb: number }[] = [];
  for (let sent = 0; sent < TOTAL; ) {
    const amount = Math.min(STEP, TOTAL - sent);
    await send(running.base, amount);
    sent += amount;
    readings.push({ sent, mb: rssMb(pid) });
  }
  console.log('app serve, profiler on, default store bounds (10,000 profiles, 200 MB)');
  console.log(
    `RSS after every ${STEP.toLocaleString('en')} requests (MB): ${readings.map((r) => r.mb.toFixed(0)).join(' ')}`,
  );
  const window = readings.filter((r) => r.sent >= FIRST).map((r) => r.mb);
  const spread = Math.max(...window) / Math.min(...window) - 1;
  const first = readings.find((r) => r.sent >= FIRST)!;
  const last = readings[readings.length - 1];
  const growth = last.mb / first.mb - 1;
  console.log(
    `from ${first.sent.toLocaleString('en')} to ${last.sent.toLocaleString('en')} requests: ${first.mb.toFixed(0)} → ${last.mb.toFixed(0)} MB (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%); ` +
      `lowest ${Math.min(...window).toFixed(0)}, highest ${Math.max(...window).toFixed(0)} MB: spread ${(spread * 100).toFixed(1)}% (goal at most 10%: ${spread <= 0.1 ? 'ok' : 'MISSED'})`,
  );
} finally {
  await running.stop();
  rmSync(store, { recursive: true, force: true });
}
