// The profile store at 1,000 and 100,000 profiles: fill, list, search, load,
// prune, bytes on disk; the embedded store, then PostgreSQL (with two writers at
// once); then each store at 1,000 against 1,000,000 profiles (store-scale.ts, BENCH_STORE_PROFILES
// for another size). `npm run bench:store [-- --only file|postgres|http|scale|scale-file|scale-postgres]`
// (http: `app serve` with each store under load); PostgreSQL is a throwaway
// server unless APPKERNEL_TEST_DATABASE_URL is set. While developing:
// `node --import tsx scripts/bench/store-bench.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Profile, SearchQuery } from '../../core/profiler/profile.js';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { openPostgresStorage } from '../../core/profiler/storage/postgres-storage.js';
import { openProfileIntake, type ProfileIntake } from '../../core/profiler/handoff/profile-intake.js';
import { nthToken, profile200, profile404, type FixtureOptions } from '../../tests/core/profiler/fixtures.js';
import { resolve } from 'node:path';
import { startContender, type RunningContender } from './contender.js';
import { allThreadsMs, mainThreadMs } from './cpu-per-request.js';
import { load } from './load.js';
import { postgresServerMs, postmasterPid } from './postgres-server-cpu.js';
import { startTempPostgres, type TempPostgres } from '../../tests/helpers/temp-postgres.js';
import { nthProfile } from './store-traffic.js';
import { scaleComparison } from './store-scale.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';
import type { ProfileStore, StoreServing } from '../../core/profiler/storage/profile-storage.js';

const SIZES = [1_000, 100_000] as const;
/** interleaved rounds of load on `app serve` with each store (a shared machine's drift evens out over more) */
const ROUNDS = 5;
/** seconds of load on two servers sharing one database */
const LOAD_SECONDS = 5;
/** A pace both stores write at without dropping, on a loaded 2-core machine too. */
const PACED_RATE = 500;
/** `page`: what a /_profiler search page asks, the rows and the count of all matches at once. */
const SEARCHES: { name: string; query: SearchQuery; filtered: boolean; page?: boolean }[] = [
  { name: 'list newest 20', query: { limit: 20 }, filtered: false },
  { name: 'page: newest 20 + count', query: { limit: 20, hideProfiler: true }, filtered: false, page: true },
  { name: 'page: 4xx + count', query: { limit: 20, status: '4xx', hideProfiler: true }, filtered: true, page: true },
  {
    name: 'page: url "/orders/42" + count',
    query: { limit: 20, url: '/orders/42', hideProfiler: true },
    filtered: true,
    page: true,
  },
  { name: 'status 5xx (0.4%)', query: { limit: 20, status: '5xx' }, filtered: true },
  { name: 'status 4xx (30%)', query: { limit: 20, status: '4xx' }, filtered: true },
  { name: 'status 404, method GET', query: { limit: 20, status: '404', method: 'GET' }, filtered: true },
  { name: 'url "/hello/" (40%)', query: { limit: 20, url: '/hello/' }, filtered: true },
  { name: 'url "wp-admin" (0.1%)', query: { limit: 20, url: 'wp-admin' }, filtered: true },
  { name: 'url "/orders/42" (0.2%)', query: { limit: 20, url: '/orders/42' }, filtered: true },
  { name: 'ip 192.168.1.3', query: { limit: 20, ip: '192.168.1.3' }, filtered: true },
];

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median µs of `run`, after a warm-up. */
async function measure(run: (i: number) => unknown, rounds = 300): Promise<number> {
  for (let i = 0; i < 30; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await run(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return median(samples);
}

interface Figures {
  fillPerSecond: number;
  bytesPerProfile: number;
  openMs: number;
  searches: number[];
  readUs: number;
  pruneMs: number;
}

/** A store to fill, behind a server's intake: `open` gives the same (empty at first) store each time it is called. */
interface Backend {
  open(limits: { maxProfiles: number; maxBytes: number; maxQueue: number }): Promise<ProfileIntake>;
  remove(): Promise<void>;
}

async function fileBackend(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-store-bench-'));
  return {
    open: (limits) => openProfileIntake(dir, { ...limits, warn: (m) => console.error(`warning: ${m}`) }),
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresBackend(server: TempPostgres): Promise<Backend> {
  const url = await server.createDatabase();
  return {
    open: (limits) => openProfileIntake(url, { ...limits, warn: (m) => console.error(`warning: ${m}`) }),
    remove: async () => {},
  };
}

async function benchSize(size: number, backend: Backend): Promise<Figures> {
  const limits = { maxProfiles: size, maxBytes: 8 * 1024 ** 3, maxQueue: 5_000 };
  try {
    let storage = await backend.open(limits);
    const start = Date.now() - size * 10;
    const fillStart = performance.now();
    for (let i = 0; i < size; i++) {
      storage.writeBatch([storedEntry(nthProfile(i, start + i * 10))]);
      if (i % 1000 === 999) await storage.flush();
    }
    await storage.close();
    const fillPerSecond = size / ((performance.now() - fillStart) / 1000);
    const openStart = performance.now();
    storage = await backend.open(limits);
    const openMs = performance.now() - openStart;
    const { profiles, bytes, dropped } = storage.stats();
    if (profiles !== size || dropped !== 0)
      throw new Error(`expected ${size} profiles, got ${profiles} (${dropped} dropped)`);
    const searches: number[] = [];
    for (const { query, page } of SEARCHES) {
      searches.push(
        await measure(() =>
          page ? Promise.all([storage.search(query), storage.count(query)]) : storage.search(query),
        ),
      );
    }
    const readUs = await measure((i) => storage.read(nthToken((i * 7717) % size)));
    const pruneStart = performance.now();
    await storage.prune({ keep: Math.floor(size / 2) });
    const pruneMs = performance.now() - pruneStart;
    await storage.close();
    return { fillPerSecond, bytesPerProfile: bytes / size, openMs, searches, readUs, pruneMs };
  } finally {
    await backend.remove();
  }
}

/** Bytes one profile adds to a store on its own (record and index line), and its encoding cost. */
async function bytesAlone(make: (o: FixtureOptions) => Profile): Promise<{ bytes: number; raw: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-store-bench-'));
  try {
    const storage = await openFileStorage({ dir });
    const profile = make({ token: 'abc123', time: Date.now() });
    storage.writeBatch([storedEntry(profile)]);
    await storage.flush();
    const bytes = storage.stats().bytes;
    await storage.close();
    return { bytes, raw: Buffer.byteLength(JSON.stringify(profile)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Event-loop time per profile written (its stored entry made, writeBatch(), framing, appends, index), building the profiles left out. */
async function mainThreadCost(
  make: (o: FixtureOptions) => Profile,
  compressInWorker: boolean,
  open?: () => Promise<ProfileStore & StoreServing>,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-store-bench-'));
  try {
    const storage = open ? await open() : await openFileStorage({ dir, compressInWorker });
    const time = Date.now();
    let active = 0;
    let written = 0;
    for (let b = 0; b < 40; b++) {
      const batch = Array.from({ length: 200 }, (_, i) =>
        make({ token: nthToken(b * 200 + i), time: time + b * 200 + i, seed: i }),
      );
      const before = performance.eventLoopUtilization();
      storage.writeBatch(batch.map(storedEntry));
      await storage.flush();
      if (b >= 10) {
        active += performance.eventLoopUtilization(before).active;
        written += batch.length;
      }
    }
    await storage.close();
    return (active * 1000) / written;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pad = (text: string, width: number) => text.padEnd(width);
const num = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }).padStart(10);
const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');

function sizeLines(title: string, small: Figures, large: Figures): string[] {
  const lines: string[] = [];
  lines.push(
    `${title}, ${SIZES[0].toLocaleString('en-US')} vs ${SIZES[1].toLocaleString('en-US')} profiles (median of 300 runs, µs unless said)`,
  );
  lines.push(`${pad('', 32)}${'1k'.padStart(10)}${'100k'.padStart(10)}  ratio  goal`);
  SEARCHES.forEach(({ name, filtered }, i) => {
    const ratio = large.searches[i] / small.searches[i];
    const goal = filtered ? ratio <= 10 : ratio <= 1.5;
    lines.push(
      `${pad(name, 32)}${num(small.searches[i], 1)}${num(large.searches[i], 1)}  ${ratio.toFixed(2).padStart(5)}  ${filtered ? '≤10' : '≤1.5'} ${verdict(goal)}`,
    );
  });
  lines.push(
    `${pad('load one profile', 32)}${num(small.readUs, 1)}${num(large.readUs, 1)}  ${(large.readUs / small.readUs).toFixed(2).padStart(5)}`,
  );
  lines.push(
    `${pad('prune to half (ms)', 32)}${num(small.pruneMs, 1)}${num(large.pruneMs, 1)}  ${(large.pruneMs / small.pruneMs).toFixed(2).padStart(5)}`,
  );
  lines.push(
    `${pad('open the store (ms)', 32)}${num(small.openMs, 1)}${num(large.openMs, 1)}  ${(large.openMs / small.openMs).toFixed(2).padStart(5)}`,
  );
  lines.push(`${pad('fill (profiles/s)', 32)}${num(small.fillPerSecond)}${num(large.fillPerSecond)}`);
  lines.push(`${pad('bytes per profile, traffic mix', 32)}${num(small.bytesPerProfile)}${num(large.bytesPerProfile)}`);
  return lines;
}

/**
 * Two stores on one database writing at once, each `count` profiles as fast as write() takes them
 * (flushing every `every`): profiles per second stored by both together, and whether every
 * profile is either stored or counted as dropped.
 */
async function twoWriters(
  server: TempPostgres,
  count: number,
  every: number,
  maxQueue: number,
): Promise<{ perSecond: number; stored: number; dropped: number; accounted: boolean }> {
  const url = await server.createDatabase();
  const open = () =>
    openProfileIntake(url, { maxProfiles: 1_000_000, maxBytes: 8 * 1024 ** 3, maxQueue, warn: () => {} });
  const stores = [await open(), await open()];
  const time = Date.now() - 2 * count * 10;
  const start = performance.now();
  await Promise.all(
    stores.map(async (storage, w) => {
      for (let i = 0; i < count; i++) {
        const n = w * count + i;
        storage.writeBatch([storedEntry(nthProfile(n, time + n * 10))]);
        if (i % every === every - 1) await storage.flush();
      }
      await storage.flush();
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const stored = await stores[0].count({ limit: 1 });
  const dropped = stores[0].stats().dropped + stores[1].stats().dropped;
  await Promise.all(stores.map((s) => s.close()));
  return { perSecond: stored / seconds, stored, dropped, accounted: stored + dropped === 2 * count };
}

/**
 * `app serve` with the profiler on over /hello/world: the embedded store against the PostgreSQL
 * one, in interleaved rounds (same machine drift for both); then two servers on one database
 * loaded at once, paced below the stores' measured write throughput and then flat out, their
 * profiles and the drops they counted (told at close) against the requests answered.
 */
async function httpComparison(server: TempPostgres, writeThroughput: number): Promise<string[]> {
  const dist = resolve(process.cwd(), 'dist');
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-store-bench-http-'));
  const url = await server.createDatabase();
  const serve = (store: string) => [
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
    '--max-profiles',
    '1000000',
    '--max-store-mb',
    '100000',
  ];
  const started: RunningContender[] = [];
  const start = async (name: string, store: string) => {
    const contender = await startContender({ name, command: serve(store) });
    started.push(contender);
    return contender;
  };
  try {
    const file = await start('file', join(dir, 'store'));
    const pg = await start('postgres', url);
    const options = { connections: 10, seconds: Number(process.env.BENCH_SECONDS ?? 3) };
    const answered: Record<string, number> = { file: 0, postgres: 0 };
    for (const [name, contender] of [
      ['file', file],
      ['postgres', pg],
    ] as const) {
      const warmUp = await load(`${contender.base}/hello/world`, { ...options, seconds: 1 });
      answered[name] += warmUp.requests - warmUp.errors;
    }
    const rps: Record<string, number[]> = { file: [], postgres: [] };
    const postmaster = postmasterPid(Number(new URL(url).port));
    const databaseMs = (name: string) =>
      name === 'postgres' && postmaster !== null ? postgresServerMs(postmaster) : 0;
    // Flat out, the cores are the limit: what a request costs there, the database server's share included.
    const flatCpu: Record<string, { all: number[]; database: number[] }> = {
      file: { all: [], database: [] },
      postgres: { all: [], database: [] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      const order =
        round % 2 === 0
          ? ([
              ['file', file],
              ['postgres', pg],
            ] as const)
          : ([
              ['postgres', pg],
              ['file', file],
            ] as const);
      for (const [name, contender] of order) {
        const pid = contender.child.pid!;
        const before = { all: allThreadsMs(pid), database: databaseMs(name) };
        const run = await load(`${contender.base}/hello/world`, options);
        // The profiles still queued are written meanwhile, and counted with this round.
        await new Promise((done) => setTimeout(done, 300));
        const requests = run.requests - run.errors;
        rps[name].push(run.rps);
        answered[name] += requests;
        flatCpu[name].all.push(((allThreadsMs(pid) - before.all) * 1000) / requests);
        flatCpu[name].database.push(((databaseMs(name) - before.database) * 1000) / requests);
      }
    }
    // Throughput under flat-out load moves with what each store drops; the CPU a request costs at a
    // pace both stores keep up with does not: each server's main thread and all its threads, paced.
    const cpu: Record<string, { main: number[]; all: number[]; database: number[] }> = {
      file: { main: [], all: [], database: [] },
      postgres: { main: [], all: [], database: [] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      const order =
        round % 2 === 0
          ? ([
              ['file', file],
              ['postgres', pg],
            ] as const)
          : ([
              ['postgres', pg],
              ['file', file],
            ] as const);
      for (const [name, contender] of order) {
        const pid = contender.child.pid!;
        const database = () => databaseMs(name);
        const before = { main: mainThreadMs(pid), all: allThreadsMs(pid), database: database() };
        const run = await load(`${contender.base}/hello/world`, { ...options, rate: PACED_RATE });
        await new Promise((done) => setTimeout(done, 300));
        const requests = run.requests - run.errors;
        answered[name] += requests;
        cpu[name].main.push(((mainThreadMs(pid) - before.main) * 1000) / requests);
        cpu[name].all.push(((allThreadsMs(pid) - before.all) * 1000) / requests);
        cpu[name].database.push(((database() - before.database) * 1000) / requests);
      }
    }
    await Promise.all([file.stop(), pg.stop()]);
    const cpuRatio = {
      main: median(cpu.postgres.main) / median(cpu.file.main),
      all: median(cpu.postgres.all) / median(cpu.file.all),
    };
    const stored = { file: await countInFolder(join(dir, 'store')), postgres: await countIn(url) };
    const fileRps = median(rps.file);
    const pgRps = median(rps.postgres);
    const ratio = pgRps / fileRps;
    const seconds = 1 + 2 * ROUNDS * options.seconds;
    const storedRatio = stored.postgres / stored.file;
    // Requests still on their way when a round's count ends are answered and stored too: stored may pass answered.
    const lost = (name: 'file' | 'postgres') => Math.max(0, answered[name] - stored[name]);
    const toldByPostgres = Number(/(\d+) profiles? (?:was|were) dropped in all/.exec(pg.output())?.[1] ?? 0);
    const share = (name: 'file' | 'postgres') =>
      `${stored[name].toLocaleString('en-US')} profiles stored of ${answered[name].toLocaleString('en-US')} answered, ` +
      `${lost(name).toLocaleString('en-US')} lost`;
    // Flat out, both cores are busy: req/s goes as the inverse of the CPU a request costs, the database server's included.
    const withDatabase = {
      file: median(cpu.file.all),
      postgres: median(cpu.postgres.all) + median(cpu.postgres.database),
    };
    const twoServers = async (rate?: number) => {
      const pair = [await start('postgres A', url), await start('postgres B', url)];
      // A server's first seconds run cold (about a tenth of its speed here), with either store.
      await Promise.all(pair.map((c) => load(`${c.base}/hello/world`, { ...options, seconds: 2, rate: 300 })));
      await new Promise((done) => setTimeout(done, 500));
      const before = await countIn(url);
      const runs = await Promise.all(
        pair.map((c) =>
          load(`${c.base}/hello/world`, { ...options, seconds: LOAD_SECONDS, ...(rate ? { rate: rate / 2 } : {}) }),
        ),
      );
      await Promise.all(pair.map((c) => c.stop()));
      if (process.env.BENCH_VERBOSE)
        for (const c of pair)
          process.stderr.write(
            c
              .output()
              .split('\n')
              .filter((l) => l.includes('warning'))
              .join('\n') + '\n',
          );
      // Each server tells its drops at close, unless none; `app serve` folds warnings close together, and may fold that one away.
      const told = pair.map((c) => /(\d+) profiles? (?:was|were) dropped in all/.exec(c.output())?.[1]);
      const dropped = told.reduce((n, count) => n + Number(count ?? 0), 0);
      const untold = pair.some(
        (c, i) => told[i] === undefined && /more profile store warnings? in the last/.test(c.output()),
      );
      return {
        rps: runs.reduce((n, r) => n + r.rps, 0),
        answered: runs.reduce((n, r) => n + r.requests - r.errors, 0),
        stored: (await countIn(url)) - before,
        dropped,
        untold,
      };
    };
    // Flat out first: the profiles per second both servers got stored while serving is the write
    // throughput that counts on this machine; then paced at half of it.
    const flat = await twoServers();
    const servedThroughput = flat.stored / LOAD_SECONDS;
    const rate = Math.max(20, Math.floor(Math.min(servedThroughput, writeThroughput) / 2));
    const paced = await twoServers(rate);
    const line = (what: string, r: Awaited<ReturnType<typeof twoServers>>, ok: boolean) =>
      `  ${what}: ${num(r.rps).trim()} req/s together, ${r.answered.toLocaleString('en-US')} answered, ${r.stored.toLocaleString('en-US')} profiles stored, ` +
      `${r.dropped.toLocaleString('en-US')} dropped and counted${r.untold ? " (a server's count was folded into a warning summary)" : ''} ${verdict(ok && !r.untold)}`;
    return [
      `app serve, profiler on, GET /hello/world (${options.connections} connections, median of ${ROUNDS} interleaved rounds of ${options.seconds} s):`,
      `  embedded store ${num(fileRps).trim()} req/s, PostgreSQL store ${num(pgRps).trim()} req/s: ${(ratio * 100).toFixed(1)}% (goal ≥90%) ${verdict(ratio >= 0.9)}; ` +
        `both hold the next request back while their writer is behind`,
      `  profiles dropped: embedded store ${lost('file').toLocaleString('en-US')} (answered − stored), PostgreSQL store ${lost('postgres').toLocaleString('en-US')} ` +
        `(${toldByPostgres.toLocaleString('en-US')} counted and told at close) ${verdict(lost('file') === 0 && lost('postgres') === 0)}`,
      `  embedded store: ${share('file')}; PostgreSQL store: ${share('postgres')} (a profile dropped at the door costs its request less: ` +
        `compare profiles stored per second of load, ${num(stored.file / seconds).trim()} and ${num(stored.postgres / seconds).trim()}: ${(storedRatio * 100).toFixed(1)}%)`,
      `  paced at ${PACED_RATE} req/s, CPU per request (median of ${ROUNDS} interleaved rounds): main thread ${num(median(cpu.file.main), 1).trim()} µs embedded, ` +
        `${num(median(cpu.postgres.main), 1).trim()} µs PostgreSQL: ${(cpuRatio.main * 100).toFixed(1)}% (goal ≤110%) ${verdict(cpuRatio.main <= 1.1)}; ` +
        `all threads ${num(median(cpu.file.all), 1).trim()} and ${num(median(cpu.postgres.all), 1).trim()} µs: ${(cpuRatio.all * 100).toFixed(1)}%`,
      `  the same with the database server's processes (${postmaster === null ? 'not found: given by APPKERNEL_TEST_DATABASE_URL?' : `pid ${postmaster} and its children`}): ` +
        `${num(median(cpu.postgres.database), 1).trim()} µs per request; all in all ${num(withDatabase.file, 1).trim()} µs embedded, ${num(withDatabase.postgres, 1).trim()} µs PostgreSQL: ` +
        `the req/s that CPU allows on cores both share, PostgreSQL ${((withDatabase.file / withDatabase.postgres) * 100).toFixed(1)}% of embedded`,
      `  flat out, CPU per request (median of ${ROUNDS} rounds): embedded ${num(median(flatCpu.file.all), 1).trim()} µs (all threads); PostgreSQL ` +
        `${num(median(flatCpu.postgres.all), 1).trim()} µs (all threads) + ${num(median(flatCpu.postgres.database), 1).trim()} µs (database server) = ` +
        `${num(median(flatCpu.postgres.all) + median(flatCpu.postgres.database), 1).trim()} µs: the req/s that CPU allows, PostgreSQL ` +
        `${((median(flatCpu.file.all) / (median(flatCpu.postgres.all) + median(flatCpu.postgres.database))) * 100).toFixed(1)}% of embedded; ` +
        `with no database CPU at all, ${((median(flatCpu.file.all) / median(flatCpu.postgres.all)) * 100).toFixed(1)}%`,
      `two servers on one database, ${LOAD_SECONDS} s of load each (two stores alone wrote ${num(writeThroughput).trim()} profiles/s, above):`,
      line('flat out', flat, flat.stored + flat.dropped >= flat.answered),
      `  write throughput while serving: ${num(servedThroughput).trim()} profiles/s stored`,
      line(
        `paced at ${num(rate).trim()} req/s (half the lower throughput)`,
        paced,
        paced.dropped === 0 && paced.stored >= paced.answered,
      ),
    ];
  } finally {
    await Promise.all(started.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function countInFolder(dir: string): Promise<number> {
  const storage = await openFileStorage({ dir, onWarning: () => {} });
  try {
    return await storage.count({ limit: 1 });
  } finally {
    await storage.close();
  }
}

async function countIn(url: string): Promise<number> {
  const storage = await openPostgresStorage({ url, onWarning: () => {} });
  try {
    return await storage.count({ limit: 1 });
  } finally {
    await storage.close();
  }
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : 'both';
const lines: string[] = [];
if (only === 'scale' || only === 'scale-file' || only === 'scale-postgres') {
  if (only !== 'scale-postgres') lines.push(...(await scaleComparison('file')), '');
  if (only !== 'scale-file') {
    const server = await startTempPostgres();
    try {
      lines.push(...(await scaleComparison('postgres', server)));
    } finally {
      await server.remove();
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(0);
}
if (only === 'both' || only === 'file') {
  const [small, large] = [
    await benchSize(SIZES[0], await fileBackend()),
    await benchSize(SIZES[1], await fileBackend()),
  ];
  const cost = {
    worker200: await mainThreadCost(profile200, true),
    inline200: await mainThreadCost(profile200, false),
    worker404: await mainThreadCost(profile404, true),
    inline404: await mainThreadCost(profile404, false),
  };
  const alone404 = await bytesAlone((o) => profile404(o));
  const alone200 = await bytesAlone((o) => profile200(o));
  lines.push(...sizeLines('embedded profile store', small, large));
  lines.push('');
  lines.push(
    `a 404 profile alone: ${alone404.bytes} bytes on disk (JSON ${alone404.raw} bytes; reference 28 KB; goal ≤3,584) ${verdict(alone404.bytes <= 3584)}`,
  );
  lines.push(`a 200 profile alone: ${alone200.bytes} bytes on disk (JSON ${alone200.raw} bytes; reference 11 KB)`);
  lines.push(
    `event-loop time per profile written: 200 ${cost.worker200.toFixed(1)} µs (${cost.inline200.toFixed(1)} compressing on the main thread), ` +
      `404 ${cost.worker404.toFixed(1)} µs (${cost.inline404.toFixed(1)})`,
  );
}
if (only === 'both') lines.push('', ...(await scaleComparison('file')));
if (only !== 'file') {
  const server = await startTempPostgres();
  try {
    if (only !== 'http') {
      const [small, large] = [
        await benchSize(SIZES[0], await postgresBackend(server)),
        await benchSize(SIZES[1], await postgresBackend(server)),
      ];
      if (lines.length) lines.push('');
      lines.push(...sizeLines('PostgreSQL profile store', small, large));
      const pgCost = {
        c200: await mainThreadCost(profile200, false, async () =>
          openPostgresStorage({ url: await server.createDatabase(), onWarning: () => {} }),
        ),
        c404: await mainThreadCost(profile404, false, async () =>
          openPostgresStorage({ url: await server.createDatabase(), onWarning: () => {} }),
        ),
      };
      lines.push(
        `event-loop time per profile written: 200 ${pgCost.c200.toFixed(1)} µs, 404 ${pgCost.c404.toFixed(1)} µs`,
      );
    }
    const paced = await twoWriters(server, 20_000, 500, 2_000);
    const burst = await twoWriters(server, 20_000, 20_000, 2_000);
    lines.push(
      `two stores writing at once, 2 x 20,000 profiles: ${num(paced.perSecond).trim()} profiles/s stored, ${paced.dropped} dropped (flushing every 500)`,
    );
    lines.push(
      `the same all at once (queue of 2,000 each): ${burst.stored.toLocaleString('en-US')} stored, ${burst.dropped.toLocaleString('en-US')} dropped and counted, every profile accounted for: ${verdict(burst.accounted)}`,
    );
    lines.push('');
    lines.push(...(await httpComparison(server, paced.perSecond)));
    if (only === 'both') lines.push('', ...(await scaleComparison('postgres', server)));
  } finally {
    await server.remove();
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
