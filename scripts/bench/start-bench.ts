// bench:start — launch to first answer for `app serve` against a bare node:http script, and the time
// from saving a changed app file to its new route answering (watch mode).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { startContender, type Contender } from './contender.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const dist = resolve(process.cwd(), 'dist');
const work = mkdtempSync(join(tmpdir(), 'appkernel-start-bench-'));
const appFile = join(work, 'app.config.ts');

function appSource(route: string): string {
  return `import { createApp } from ${JSON.stringify(join(dist, 'index.js'))};
export const app = createApp().get('home', '/', () => ({ ok: true })).get('${route}', '/${route}', () => ({ route: '${route}' }));
`;
}

async function status(url: string): Promise<number> {
  try {
    const r = await request(url);
    await r.body.dump();
    return r.statusCode;
  } catch {
    return 0;
  }
}

async function until(url: string, expected: number, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await status(url) === expected) return;
    await new Promise((done) => setTimeout(done, 2));
  }
  throw new Error(`${url} never answered ${expected}`);
}

async function launchToFirstAnswer(contender: Contender): Promise<number> {
  const start = performance.now();
  const running = await startContender(contender);
  await until(`${running.base}/`, contender.name === 'node:http' ? 404 : 200);
  const ms = performance.now() - start;
  await running.stop();
  return ms;
}

async function reloadTime(round: number): Promise<number> {
  const route = `route${round}`;
  const start = performance.now();
  writeFileSync(appFile, appSource(route));
  await until(`${base}/${route}`, 200);
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const bare: Contender = { name: 'node:http', command: [process.execPath, join(dist, 'scripts/bench/peers/node-http-server.js')] };
writeFileSync(appFile, appSource('route0'));
const serveCmd = [process.execPath, join(dist, 'cli/bin.js'), 'serve', '--port', '0', '--store', join(work, 'store')];
const app: Contender = { name: 'app serve', command: [...serveCmd, '--no-watch', '--app', appFile] };

const times = { bare: [] as number[], app: [] as number[], reload: [] as number[] };
let base = '';
try {
  for (let i = 0; i < rounds; i++) {
    times.bare.push(await launchToFirstAnswer(bare));
    times.app.push(await launchToFirstAnswer(app));
  }
  const watching = await startContender({ name: 'app serve (watch)', command: [...serveCmd, '--app', appFile] });
  base = watching.base;
  await until(`${base}/`, 200);
  await new Promise((done) => setTimeout(done, 300));
  for (let i = 1; i <= rounds; i++) {
    times.reload.push(await reloadTime(i));
    await new Promise((done) => setTimeout(done, 150));
  }
  await watching.stop();
  const [b, a, r] = [median(times.bare), median(times.app), median(times.reload)];
  console.log(`\nmedian of ${rounds} rounds`);
  console.log(`node:http script, launch to first answer   ${b.toFixed(0).padStart(6)} ms`);
  console.log(`app serve (app.config.ts), same            ${a.toFixed(0).padStart(6)} ms   ${(a / b).toFixed(2)}x node:http (goal <= 4)`);
  console.log(`save to new route answering (watch mode)   ${r.toFixed(0).padStart(6)} ms   ${(r / b).toFixed(2)}x node:http start (goal <= 5)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
