// bench:start — launch to first answer for `app serve` against a bare node:http script, the time
// from saving a changed app file to its new route answering (watch mode), and the CLI's start:
// `app --version` and `app profiles list` on a 1,000-profile store against bare `node -e 0`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { startContender, type Contender } from './contender.js';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { nthToken, profile200, profile404 } from '../../tests/core/profiler/fixtures.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';

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
    if ((await status(url)) === expected) return;
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

/** Wall time of one run of `command` to its exit, which must be 0. */
function runTime(command: string[]): number {
  const start = performance.now();
  const run = spawnSync(command[0], command.slice(1), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`${command.join(' ')} exited ${run.status}:\n${run.stderr}`);
  return ms;
}

async function fillStore(dir: string, count: number): Promise<void> {
  const storage = await openFileStorage({ dir });
  const start = Date.now() - count * 10;
  for (let i = 0; i < count; i++) {
    const options = { token: nthToken(i), time: start + i * 10, seed: i };
    storage.writeBatch([storedEntry(i % 4 === 0 ? profile404(options) : profile200(options))]);
    if (i % 250 === 249) await storage.flush();
  }
  await storage.close();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const bare: Contender = {
  name: 'node:http',
  command: [process.execPath, join(dist, 'scripts/bench/peers/node-http-server.js')],
};
writeFileSync(appFile, appSource('route0'));
const serveCmd = [process.execPath, join(dist, 'cli/bin.js'), 'serve', '--port', '0', '--store', join(work, 'store')];
const app: Contender = { name: 'app serve', command: [...serveCmd, '--no-watch', '--app', appFile] };

const times = {
  bare: [] as number[],
  app: [] as number[],
  reload: [] as number[],
  node: [] as number[],
  version: [] as number[],
  list: [] as number[],
};
const cliStore = join(work, 'cli-store');
const cli = (...args: string[]) => [process.execPath, join(dist, 'cli/bin.js'), ...args];
let base = '';
/** `-- --only cli`: the CLI's start alone, without the servers */
const cliOnly = process.argv.includes('--only') && process.argv[process.argv.indexOf('--only') + 1] === 'cli';
const row = (label: string, ms: number, versus = '') =>
  console.log(`${label.padEnd(43)}${ms.toFixed(0).padStart(6)} ms${versus ? `   ${versus}` : ''}`);
try {
  if (!cliOnly) {
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
  }
  await fillStore(cliStore, 1000);
  runTime(cli('profiles', 'list', '--store', cliStore)); // the store's first read after its writer, and a warm disk cache
  for (let i = 0; i < rounds; i++) {
    times.node.push(runTime([process.execPath, '-e', '0']));
    times.version.push(runTime(cli('--version')));
    times.list.push(runTime(cli('profiles', 'list', '--store', cliStore)));
  }
  console.log(`\nmedian of ${rounds} rounds`);
  if (!cliOnly) {
    const [b, a, r] = [median(times.bare), median(times.app), median(times.reload)];
    row('node:http script, launch to first answer', b);
    row('app serve (app.config.ts), same', a, `${(a / b).toFixed(2)}x node:http (goal <= 4)`);
    row('save to new route answering (watch mode)', r, `${(r / b).toFixed(2)}x node:http start (goal <= 5)`);
  }
  const [n, v, l] = [median(times.node), median(times.version), median(times.list)];
  row('node -e 0, launch to exit', n);
  row('app --version, same', v, `${(v / n).toFixed(2)}x node -e 0 (goal <= 2)`);
  row('app profiles list, 1,000 profiles, same', l, `${(l / n).toFixed(2)}x node -e 0 (goal <= 300 ms)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
