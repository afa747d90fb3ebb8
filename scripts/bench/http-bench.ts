// bench:http — appkernel with and without its profiler against node:http and Fastify on 127.0.0.1,
// each loaded by the same generator with the same settings (wrk when installed, else autocannon: see
// load.ts). The servers run side by side and each case is measured in interleaved rounds (the order
// rotating every round), so that a machine whose speed drifts moves every contender alike; the
// medians and their ratios are printed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { startContender, type Contender, type RunningContender } from './contender.js';
import { allThreadsMs, cpuByThreadMs, cpuMs } from './cpu-per-request.js';
import { load, loadGenerator } from './load.js';
import { onServerCore, PINNED, pinThisProcessToGeneratorCore } from './pin-cores.js';
import { panelUrl } from '../../core/profiler/profiler-urls.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const warmup = Number(process.env.BENCH_WARMUP ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const generator = (() => {
  try {
    return loadGenerator();
  } catch (error) {
    console.error(`bench:http: ${(error as Error).message}`);
    return process.exit(2);
  }
})();
const dist = resolve(process.cwd(), 'dist');
const store = mkdtempSync(join(tmpdir(), 'appkernel-bench-store-'));
const serve = (extra: string[]) =>
  onServerCore([
    process.execPath,
    join(dist, 'cli/bin.js'),
    'serve',
    '--port',
    '0',
    '--no-watch',
    '--app',
    join(dist, 'scripts/bench/bench-app.js'),
    '--store',
    store,
    ...extra,
  ]);

const NODE = 'node:http';
const FASTIFY = 'fastify';
const PROFILER = 'appkernel profiler on';
const CONTENDERS: Contender[] = [
  { name: NODE, command: onServerCore([process.execPath, join(dist, 'scripts/bench/peers/node-http-server.js')]) },
  { name: FASTIFY, command: onServerCore([process.execPath, join(dist, 'scripts/bench/peers/fastify-server.js')]) },
  { name: 'appkernel --no-debug', command: serve(['--no-debug']) },
  // 100,000, not the default 10,000: on a fast machine one 3 s load of the panel case writes more
  // than 10,000 profiles (each panel view is profiled too) and pruned the very profile it showed.
  { name: PROFILER, command: serve(['--max-profiles', '100000']) },
];

interface Case {
  name: string;
  /** the path per contender; contenders without one sit this case out */
  path: (contender: string) => string | undefined;
  /** the case whose node:http and Fastify figures this one is compared with */
  baseline?: string;
  /** run before each load of the case */
  before?: () => Promise<void>;
  /** the status class every answer must have: answers of another count as errors */
  answers: '2xx' | '404';
  headers?: Record<string, string>;
}

let panelPath = '';
/**
 * A fresh 404 profile for the panel to show before each load: the profile a whole case kept
 * asking for would be pruned part way, and the rest of the case would measure "Token not found" pages.
 */
async function freshPanelPath(): Promise<void> {
  const first = await request(`${running.get(PROFILER)!.base}/nope`);
  await first.body.dump();
  panelPath = panelUrl(String(first.headers['x-debug-token']), 'exception');
}
const CASES: Case[] = [
  { name: 'static 200', path: () => '/static', answers: '2xx' },
  { name: 'param 200', path: () => '/hello/world', answers: '2xx' },
  { name: '404', path: () => '/nope', answers: '404' },
  { name: 'JSON 404', path: () => '/nope', answers: '404', headers: { accept: 'application/json' } },
  {
    name: 'debug 404 page (HTML)',
    path: (c) => (c === PROFILER ? '/robots.txt' : undefined),
    baseline: '404',
    answers: '404',
  },
  {
    name: 'exception panel',
    path: (c) => (c === PROFILER ? panelPath : undefined),
    baseline: '404',
    before: freshPanelPath,
    answers: '2xx',
  },
];

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuUs: number;
  mainUs: number;
  profilerUs: number;
  otherUs: number;
}

/** Profiles the store dropped, from its warnings: "… was dropped" lines, each with "(N more dropped since the last warning)". */
function droppedIn(output: string): number {
  let dropped = 0;
  for (const line of output.split('\n')) {
    if (!/dropped/.test(line)) continue;
    const more = /\((\d+) more dropped/.exec(line);
    const count = /Could not store (\d+) profiles/.exec(line);
    dropped += (count ? Number(count[1]) : 1) + (more ? Number(more[1]) : 0);
  }
  return dropped;
}

const QUIET_MS_PER_S = 20;
const QUIET_LIMIT_MS = 5_000;

/**
 * Waits until every server is quiet (together under QUIET_MS_PER_S ms of CPU a second, over 100 ms),
 * at most QUIET_LIMIT_MS: a profiling server goes on building, storing and compressing the profiles
 * of its round after the load stops, and that work must not fall into the next contender's round.
 */
async function untilQuiet(): Promise<void> {
  const pids = [...running.values()].map((r) => r.child.pid!);
  const busy = () => pids.reduce((sum, pid) => sum + allThreadsMs(pid), 0);
  for (const deadline = Date.now() + QUIET_LIMIT_MS; Date.now() < deadline; ) {
    const before = busy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (busy() - before < QUIET_MS_PER_S / 10) return;
  }
}

async function sample(running: RunningContender, c: Case, path: string): Promise<Sample> {
  await untilQuiet();
  const pid = running.child.pid!;
  const before = cpuMs(pid);
  const threadsBefore = cpuByThreadMs(pid);
  const answers = c.answers;
  const r = await load(running.base + path, { connections, seconds, headers: c.headers }, generator);
  const wrongStatus = answers === '2xx' ? r.non2xx : r.requests - r.non2xx;
  const perRequest = (ms: number) => (ms * 1000) / Math.max(1, r.requests);
  const threads = cpuByThreadMs(pid);
  return {
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    errors: r.errors + wrongStatus,
    cpuUs: perRequest(cpuMs(pid) - before),
    mainUs: perRequest(threads.main - threadsBefore.main),
    profilerUs: perRequest(threads.profiler - threadsBefore.profiler),
    otherUs: perRequest(threads.other - threadsBefore.other),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(digits));

const running = new Map<string, RunningContender>();
pinThisProcessToGeneratorCore();
try {
  for (const contender of CONTENDERS) running.set(contender.name, await startContender(contender));

  const results = new Map<string, Map<string, Sample>>();
  for (const c of CASES) {
    const taking = CONTENDERS.map((x) => x.name).filter((name) => c.path(name) !== undefined);
    process.stderr.write(`${c.name}: ${taking.join(', ')}, ${rounds} rounds...\n`);
    for (const name of taking) {
      await c.before?.();
      await load(
        running.get(name)!.base + c.path(name)!,
        { connections, seconds: warmup, headers: c.headers },
        generator,
      );
    }
    const samples = new Map<string, Sample[]>(taking.map((name) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < taking.length; i++) {
        const name = taking[(i + round) % taking.length];
        await c.before?.();
        samples.get(name)!.push(await sample(running.get(name)!, c, c.path(name)!));
      }
    }
    results.set(
      c.name,
      new Map(
        [...samples].map(([name, list]) => [
          name,
          {
            rps: median(list.map((s) => s.rps)),
            p50: median(list.map((s) => s.p50)),
            p99: median(list.map((s) => s.p99)),
            errors: list.reduce((n, s) => n + s.errors, 0),
            cpuUs: median(list.map((s) => s.cpuUs)),
            mainUs: median(list.map((s) => s.mainUs)),
            profilerUs: median(list.map((s) => s.profilerUs)),
            otherUs: median(list.map((s) => s.otherUs)),
          },
        ]),
      ),
    );
  }

  console.log(
    `\n${generator === 'wrk' ? 'wrk (1 thread)' : 'autocannon'}, ${connections} connections, ${warmup} s warm-up, then ${rounds} interleaved rounds of ${seconds} s per case; medians; 127.0.0.1`,
  );
  console.log(
    PINNED
      ? 'servers pinned to core 0 (all their threads), the load generator to core 1 (BENCH_PIN=0: unpinned)'
      : 'not pinned (needs Linux, taskset and 2 cores)',
  );
  console.log(
    "errors: failed or timed-out requests, and answers of another status class than the case's (2xx, or 404)",
  );
  console.log(
    'CPU µs/req: the server process\'s user + system CPU (all its threads) per request; "CPU x node": node:http\'s CPU over ours',
  );
  console.log(
    'main, profiler, other µs/req: the same by thread: the main thread (the event loop every request waits for),',
  );
  console.log('  the profiler worker, and the rest (compression, GC helpers, libuv), from /proc/<pid>/task/*/stat\n');
  console.log(
    [
      'contender'.padEnd(22),
      'request'.padEnd(22),
      'req/s'.padStart(8),
      'p50 ms'.padStart(7),
      'p99 ms'.padStart(7),
      'errors'.padStart(7),
      'x node:http'.padStart(12),
      'x fastify'.padStart(10),
      'CPU µs/req'.padStart(11),
      'CPU x node'.padStart(11),
      'main'.padStart(7),
      'profiler'.padStart(9),
      'other'.padStart(7),
    ].join(' '),
  );
  for (const contender of CONTENDERS) {
    for (const c of CASES) {
      const r = results.get(c.name)!.get(contender.name);
      if (!r) continue;
      const base = results.get(c.baseline ?? c.name)!;
      const node = base.get(NODE)!;
      const fastify = base.get(FASTIFY)!;
      console.log(
        [
          contender.name.padEnd(22),
          c.name.padEnd(22),
          fmt(r.rps).padStart(8),
          fmt(r.p50).padStart(7),
          fmt(r.p99).padStart(7),
          String(r.errors).padStart(7),
          fmt(r.rps / node.rps, 2).padStart(12),
          fmt(r.rps / fastify.rps, 2).padStart(10),
          fmt(r.cpuUs, 1).padStart(11),
          fmt(node.cpuUs / r.cpuUs, 2).padStart(11),
          fmt(r.mainUs, 1).padStart(7),
          fmt(r.profilerUs, 1).padStart(9),
          fmt(r.otherUs, 1).padStart(7),
        ].join(' '),
      );
    }
  }
  const profiler = running.get(PROFILER);
  if (profiler)
    console.log(
      `\n${PROFILER}: ${droppedIn(profiler.output())} profiles dropped over the whole run (from its store's warnings)`,
    );
} finally {
  for (const r of running.values()) await r.stop();
  rmSync(store, { recursive: true, force: true });
}
