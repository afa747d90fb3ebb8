// Router lookups, appkernel against find-my-way, on ../shared/bench/routes (GitHub API table).
// Usage: node dist/scripts/bench/router-bench.js [set: github-api | mixed] [--rounds N] [--runs N]
// (APPKERNEL_BENCH_ROUTES overrides the folder). Each contender is timed in a fresh child
// process, so no router's JIT state leaks into another's; runs alternate between contenders.
import { fork } from 'node:child_process';
import type { Outcome, RouterAdapter } from './router/adapter.js';
import { BASELINE, CONTENDERS } from './router/contenders.js';
import { measure, median } from './router/measure.js';
import { loadWorkload, type BenchRequest } from './router/workload.js';

const KINDS = ['static', 'param', 'wildcard', '404', '405', 'all'] as const;

interface Options { set: string; rounds: number; runs: number; child: string | null }

function parseOptions(argv: string[]): Options {
  const args = [...argv];
  const take = (flag: string): string | null => {
    const at = args.indexOf(flag);
    return at === -1 ? null : args.splice(at, 2)[1];
  };
  const rounds = Number(take('--rounds') ?? 9);
  const runs = Number(take('--runs') ?? 3);
  const child = take('--child');
  return { set: args[0] ?? 'github-api', rounds, runs, child };
}

/** A router that cannot tell 405 from 404 agrees with either. */
function agrees(router: RouterAdapter, outcome: Outcome, reference: Outcome): boolean {
  return outcome === reference || (router.tellsApart405 === false && outcome === 404 && reference === 405);
}

/** The requests every contender decides alike, by kind; the others, described. */
function timedRequests(requests: readonly BenchRequest[], routers: readonly RouterAdapter[]) {
  const agreed: BenchRequest[] = [];
  const excluded: string[] = [];
  for (const request of requests) {
    const outcomes = routers.map((r) => r.lookup(request.method, request.path));
    if (routers.every((r, i) => agrees(r, outcomes[i], outcomes[0]))) agreed.push(request);
    else excluded.push(`${request.method} ${request.path}: ${routers.map((r, i) => `${r.name} ${outcomes[i]}`).join(', ')}`);
  }
  const groups = new Map<string, BenchRequest[]>();
  for (const kind of KINDS) {
    const group = kind === 'all' ? agreed : agreed.filter((r) => r.kind === kind);
    if (group.length > 0) groups.set(kind, group);
  }
  return { groups, excluded };
}

function runChild(name: string, options: Options): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = fork(process.argv[1], [options.set, '--rounds', String(options.rounds), '--child', name], { execArgv: process.execArgv });
    child.once('message', (message) => resolve(message as Record<string, number>));
    child.once('exit', (code) => code !== 0 && reject(new Error(`${name}: the measuring process exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const workload = loadWorkload(options.set);
  const routers = Object.entries(CONTENDERS).map(([, factory]) => factory(workload.routes));
  const { groups, excluded } = timedRequests(workload.requests, routers);
  if (options.child !== null) {
    const router = routers.find((r) => r.name === options.child)!;
    process.send!(measure(router, groups, options.rounds), () => process.disconnect());
    return;
  }
  const results = new Map<string, Record<string, number>[]>(routers.map((r) => [r.name, []]));
  for (let run = 0; run < options.runs; run++) {
    for (const router of run % 2 === 0 ? routers : [...routers].reverse()) results.get(router.name)!.push(await runChild(router.name, options));
  }
  const ns = (name: string, kind: string) => median(results.get(name)!.map((r) => r[kind]));
  console.log(`Router lookups on ${workload.name}: ${workload.routes.length} routes, ${workload.requests.length} requests, `
    + `${groups.get('all')?.length ?? 0} timed, ${excluded.length} excluded (the routers disagree)`);
  for (const line of excluded) console.log(`  excluded ${line}`);
  console.log(`Node ${process.version}; ns per lookup: median of ${options.runs} processes, each the median of ${options.rounds} rounds\n`);
  const kinds = [...groups.keys()];
  printTable(['kind', 'lookups', ...routers.map((r) => r.name)],
    kinds.map((kind) => [kind, String(groups.get(kind)!.length), ...routers.map((r) => ns(r.name, kind).toFixed(1))]));
  const ratios = RATIOS.filter(([a, b]) => results.has(a) && results.has(b));
  console.log('\nRatios (below 1: appkernel is faster)');
  printTable(['kind', ...ratios.map(([a, b]) => `${a} / ${b}`)],
    kinds.map((kind) => [kind, ...ratios.map(([a, b]) => (ns(a, kind) / ns(b, kind)).toFixed(2))]));
  console.log(`\n${BASELINE} asks the table's other methods after a miss, to tell 405 from 404 as appkernel does;`
    + ' "find() alone" is one failed lookup per miss, with no 404/405 distinction.');
}

/** appkernel's contenders against find-my-way, then against find() alone. */
const RATIOS: [string, string][] = [
  ['appkernel lookup()', BASELINE], ['appkernel match()', BASELINE], ['appkernel lookup()', 'find-my-way find()'],
];

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}

await main();
