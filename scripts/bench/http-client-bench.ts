// bench:http-client — the main thread's CPU per request for a route that makes one outgoing fetch,
// with the profiler's HTTP client panel on, off, and without any recording scope: one server per
// mode runs in a child process (http-client-server.ts) for the whole run, its main thread's CPU read
// (its run time in ns, /proc/<pid>/task/<pid>/schedstat) around each batch of requests (autocannon, from
// this process, which also runs the upstream server). Each round loads the three servers at the same
// time, so that whatever moves the machine's speed weighs on the three modes alike: taken in turn,
// batches a few seconds apart, on over off ranged from -2% to +16% over four runs of one build (round by
// round quartiles 6.8% to 18.8% in one), loaded together +1.6% and +1.7% (quartiles 1.6% to 2.5%, and
// -1.7% to 6.2%). The servers run on one core and this process (autocannon and the upstream) on the
// other (pin-cores.ts), as bench:http runs: unpinned, rounds of one run moved by ±20%.
// Usage: node dist/scripts/bench/http-client-bench.js   (BENCH_ROUNDS, BENCH_REQUESTS per batch;
// BENCH_TOGETHER=0 loads the servers in turn, a batch each in a rotating order)
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { allThreadsMs, mainThreadMs } from './cpu-per-request.js';
import { onServerCore, PINNED, pinThisProcessToGeneratorCore } from './pin-cores.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4_000);
/** the three servers take their batches at the same time, on the same core; BENCH_TOGETHER=0: in turn */
const TOGETHER = process.env.BENCH_TOGETHER !== '0';
const MODES = ['on', 'off', 'none'] as const;
type Mode = (typeof MODES)[number];

pinThisProcessToGeneratorCore();
const upstream = createServer((_, response) =>
  response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok'),
);
await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;

interface Server {
  child: ChildProcess;
  url: string;
}

function startServer(mode: Mode): Promise<Server> {
  return new Promise((done, fail) => {
    const [command, ...args] = onServerCore([process.execPath, 'dist/scripts/bench/http-client-server.js']);
    const child = spawn(command, args, {
      env: { ...process.env, BENCH_MODE: mode, BENCH_UPSTREAM: upstreamUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /^(http:\/\/\S+)\n/.exec(out)?.[1];
      if (url) done({ child, url });
    });
    child.once('exit', (code) => fail(new Error(`the bench server exited ${code}`)));
  });
}

async function stop({ child }: Server): Promise<void> {
  child.removeAllListeners('exit');
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/** µs of the server's main-thread CPU per request over one batch; `all`: of all its threads (the profiler worker's included). */
async function measure(mode: Mode, { child, url }: Server, amount: number): Promise<number> {
  const before = mainThreadMs(child.pid!);
  const beforeAll = allThreadsMs(child.pid!);
  const result = await autocannon({ url: `${url}/call`, connections: 8, amount });
  const after = mainThreadMs(child.pid!);
  whole[mode].push(((allThreadsMs(child.pid!) - beforeAll) * 1000) / amount);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${mode}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return ((after - before) * 1000) / amount;
}

const whole: Record<Mode, number[]> = { on: [], off: [], none: [] };

const servers = {} as Record<Mode, Server>;
const samples: Record<Mode, number[]> = { on: [], off: [], none: [] };
try {
  for (const mode of MODES) servers[mode] = await startServer(mode);
  for (const mode of MODES) await measure(mode, servers[mode], Math.ceil(REQUESTS / 2));
  for (let round = 0; round < ROUNDS; round++) {
    if (TOGETHER) {
      const got = await Promise.all(MODES.map((mode) => measure(mode, servers[mode], REQUESTS)));
      MODES.forEach((mode, i) => samples[mode].push(got[i]));
    } else {
      const order = MODES.map((_, i) => MODES[(i + round) % MODES.length]);
      for (const mode of order) samples[mode].push(await measure(mode, servers[mode], REQUESTS));
    }
    process.stderr.write(
      `round ${round + 1}/${ROUNDS}: ${MODES.map((m) => `${m} ${samples[m].at(-1)!.toFixed(0)} µs`).join(', ')}\n`,
    );
  }
} finally {
  await Promise.all(Object.values(servers).map(stop));
  upstream.close();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const m = Object.fromEntries(MODES.map((mode) => [mode, median(samples[mode])])) as Record<Mode, number>;
console.log(
  `main-thread CPU per request with one outgoing fetch (median of ${ROUNDS} rounds of ${REQUESTS} requests, the servers loaded ${TOGETHER ? 'together' : 'in turn'}; ${PINNED ? 'servers on core 0, autocannon and the upstream on core 1' : 'not pinned'}; goal: on at most 5% over off):`,
);
// the warm-up batch of each server is not a sample
for (const mode of MODES) whole[mode].shift();
const all = Object.fromEntries(MODES.map((mode) => [mode, median(whole[mode])])) as Record<Mode, number>;
console.log(`  HTTP client panel on   ${m.on.toFixed(1)} µs`);
console.log(
  `  HTTP client panel off  ${m.off.toFixed(1)} µs   (on costs ${(((m.on - m.off) / m.off) * 100).toFixed(1)}% more)`,
);
console.log(
  `  no recording scope     ${m.none.toFixed(1)} µs   (on costs ${(((m.on - m.none) / m.none) * 100).toFixed(1)}% more)`,
);
console.log(
  `  the whole process (every thread: the profiler worker builds and stores the profiles): on ${all.on.toFixed(1)} µs, off ${all.off.toFixed(1)} µs (on costs ${(((all.on - all.off) / all.off) * 100).toFixed(1)}% more), no recording scope ${all.none.toFixed(1)} µs`,
);
// The modes of one round run seconds apart: their ratio is the figure least moved by the machine's load.
const extra = samples.on
  .map((on, round) => ((on - samples.off[round]) / samples.off[round]) * 100)
  .sort((a, b) => a - b);
const quartile = (q: number) => extra[Math.round(q * (extra.length - 1))];
console.log(
  `  on over off, round by round: median ${median(extra).toFixed(1)}%, quartiles ${quartile(0.25).toFixed(1)}% .. ${quartile(0.75).toFixed(1)}%, range ${extra[0].toFixed(1)}% .. ${extra.at(-1)!.toFixed(1)}%`,
);
