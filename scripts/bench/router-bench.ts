// Router lookups, appkernel's lookup() against find-my-way's find(), on ../shared/bench/routes.
// Usage: node dist/scripts/bench/router-bench.js [set ...] [--rounds N]
// (sets: github-api and github-2k by default; APPKERNEL_BENCH_ROUTES overrides the folder).
// Each contender lives in its own child process, so no router's JIT state leaks into another's;
// the parent asks them for one round at a time, alternately, and the ratios are the medians of
// the per-round ratios: on a shared, noisy machine both sides of a ratio see the same moment.
import { fork, type ChildProcess } from 'node:child_process';
import type { Outcome, RouterAdapter } from './router/adapter.js';
import { APPKERNEL, BASELINE, CONTENDERS } from './router/contenders.js';
import { median, round, warmUp } from './router/measure.js';
import { split405 } from './router/split-405.js';
import { loadWorkload, type BenchRequest, type Workload } from './router/workload.js';

const KINDS = ['static', 'param', 'wildcard', '404', '405', 'all'] as const;
const SETS = ['github-api', 'github-2k'];

interface Options {
  sets: string[];
  rounds: number;
  child: string | null;
}

function parseOptions(argv: string[]): Options {
  const args = [...argv];
  const take = (flag: string): string | null => {
    const at = args.indexOf(flag);
    return at === -1 ? null : args.splice(at, 2)[1];
  };
  const rounds = Number(take('--rounds') ?? 15);
  const child = take('--child');
  if (!Number.isInteger(rounds) || rounds < 1) {
    console.error('--rounds takes a whole number of rounds, 1 or more');
    process.exit(2);
  }
  return { sets: args.length > 0 ? args : SETS, rounds, child };
}

/** A router that cannot tell 405 from 404 agrees with either. */
function agrees(router: RouterAdapter, outcome: Outcome, reference: Outcome): boolean {
  return outcome === reference || (router.tellsApart405 === false && outcome === 404 && reference === 405);
}

/** The requests every contender decides alike, by kind; the others, described. */
function timedRequests(workload: Workload, routers: readonly RouterAdapter[]) {
  const requests = workload.requests;
  const agreed: BenchRequest[] = [];
  const excluded: string[] = [];
  for (const request of requests) {
    const outcomes = routers.map((r) => r.lookup(request.method, request.path));
    if (routers.every((r, i) => agrees(r, outcomes[i], outcomes[0]))) agreed.push(request);
    else
      excluded.push(
        `${request.method} ${request.path}: ${routers.map((r, i) => `${r.name} ${outcomes[i]}`).join(', ')}`,
      );
  }
  const groups = new Map<string, BenchRequest[]>();
  for (const kind of KINDS) {
    const group = kind === 'all' ? agreed : agreed.filter((r) => r.kind === kind);
    if (group.length > 0) groups.set(kind, group);
    if (kind === '405') for (const [name, part] of split405(group, workload)) groups.set(name, part);
  }
  return { groups, excluded };
}

/** In a child: build one router, warm it up, then measure a round each time the parent asks. */
function serveRounds(set: string, name: string): void {
  const workload = loadWorkload(set);
  const routers = Object.values(CONTENDERS).map((factory) => factory(workload.routes));
  const { groups } = timedRequests(workload, routers);
  const router = routers.find((r) => r.name === name)!;
  warmUp(router, groups);
  process.on('message', (message) => {
    if (message === 'round') process.send!(round(router, groups));
    else process.disconnect();
  });
  process.send!('ready');
}

function startChild(set: string, name: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(process.argv[1], [set, '--child', name], { execArgv: process.execArgv });
    child.once('message', () => resolve(child));
    child.once('exit', (code) => code !== 0 && reject(new Error(`${name}: the measuring process exited with ${code}`)));
  });
}

function askRound(child: ChildProcess): Promise<Record<string, number>> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as Record<string, number>));
    child.send('round');
  });
}

async function benchSet(set: string, rounds: number): Promise<void> {
  const workload = loadWorkload(set);
  const routers = Object.values(CONTENDERS).map((factory) => factory(workload.routes));
  const { groups, excluded } = timedRequests(workload, routers);
  const names = routers.map((r) => r.name);
  const children = new Map<string, ChildProcess>();
  for (const name of names) children.set(name, await startChild(set, name));
  const results = new Map<string, Record<string, number>[]>(names.map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse())
      results.get(name)!.push(await askRound(children.get(name)!));
  }
  for (const child of children.values()) child.disconnect();

  const kinds = [...groups.keys()];
  const ns = (name: string, kind: string) => median(results.get(name)!.map((x) => x[kind]));
  const ratio = (kind: string) =>
    median(results.get(APPKERNEL)!.map((x, i) => x[kind] / results.get(BASELINE)![i][kind]));
  console.log(
    `\nRouter lookups on ${set}: ${workload.routes.length} routes, ${workload.requests.length} requests, ` +
      `${groups.get('all')?.length ?? 0} timed, ${excluded.length} excluded (the routers disagree)`,
  );
  for (const line of excluded) console.log(`  excluded ${line}`);
  console.log(`ns of CPU per lookup, median of ${rounds} interleaved rounds; ratio: median of the per-round ratios\n`);
  printTable(
    ['kind', 'lookups', ...names, `${APPKERNEL} / ${BASELINE}`],
    kinds.map((kind) => [
      kind,
      String(groups.get(kind)!.length),
      ...names.map((name) => ns(name, kind).toFixed(1)),
      ratio(kind).toFixed(2),
    ]),
  );
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.child !== null) return serveRounds(options.sets[0], options.child);
  console.log(
    `Node ${process.version}; below 1: appkernel is faster. find() misses are one failed lookup in the method's` +
      ' tree (404 and 405 not told apart); appkernel tells 405 from 404, its allowed methods included.',
  );
  for (const set of options.sets) await benchSet(set, options.rounds);
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  for (const row of [header, ...rows])
    console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}

await main();
