// bench:query — what recording a query costs: sequential `SELECT 1` round trips to a local PostgreSQL
// through pg (a Client, and a pg.Pool), and to a local MariaDB through mysql2 when one is installed,
// with the Database panel on and off, in one run. On: the query recorded into a request's scope, and
// each request's queries written as the hand-off writes them (stack frame, source maps, parameters).
// Off: the panel turned off (database capture settings none) in drivers wrapped and subscribed once:
// pg's wrappers and mysql2's statement notes pass the call through, mysql2's handlers return at once
// (mysql2's own publishing once anyone subscribes is in both), the request's scope still entered.
// Each simulated request runs one statement 20 times (the N+1 shape): on, its first run takes its
// stack (statement-runs.ts); "every stack" is `--query-stacks all`, what a request of 20 distinct
// statements costs. Each round runs requests of the three modes one after the other (the order turning),
// on one connection, so that the machine's load weighs on all alike. Goal (issue 41): on costs at most
// 3% over off. Last, the recording's own CPU without I/O: the same wrapper round a Client that answers
// at once, on over off.
// Usage: node dist/scripts/bench/query-bench.js   (BENCH_ROUNDS, BENCH_QUERIES per mode and round; BENCH_MYSQL=0
// leaves mysql2 out; a throwaway PostgreSQL is started unless APPKERNEL_TEST_DATABASE_URL is set)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { setDatabaseCaptureSettings } from '../../core/debug/database-capture-settings.js';
import { captureStack, DATABASE_COLLECTOR } from '../../core/debug/database-query.js';
import { startMysql2Capture } from '../../core/debug/mysql2-query-capture.js';
import { noteMysql2Statements, type Mysql2StatementClass } from '../../core/debug/mysql2-statements.js';
import { wrapPgModule, type PgModule } from '../../core/debug/pg-query-capture.js';
import { currentRecorder, enterRequestScope, type RequestRecorder } from '../../core/debug/request-scope.js';
import { memoizeSourceMappedStacks } from '../../core/kernel/source-mapped-stacks.js';
import { ByteReader, ByteWriter } from '../../core/profiler/handoff/byte-writer.js';
import { readEntries, writeEntries } from '../../core/profiler/handoff/request-record.js';
import { collectDatabase } from '../../core/profiler/collectors/database-collector.js';
import type { CollectContext } from '../../core/profiler/collectors/collect-context.js';
import { SecretValues } from '../../core/redaction/index.js';
import { startTempPostgres } from '../../tests/helpers/temp-postgres.js';
import { allThreadsMs } from './cpu-per-request.js';
import { startTempMariaDb, type TempMariaDb } from '../../tests/helpers/temp-mariadb.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
/** the second pass, run by the first under `taskset -c 0` with databases of its own: its figures as JSON */
const PINNED_PASS = process.env.BENCH_PINNED_PASS === '1';
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2_000);
/** queries per simulated request: its entries are written as the hand-off writes them, then dropped */
const PER_REQUEST = 20;
const MODES = ['on', 'every', 'off'] as const;
type Mode = (typeof MODES)[number];

// As `app serve` runs (cli/bin.ts): stacks source-mapped.
process.setSourceMapsEnabled(true);
memoizeSourceMappedStacks();

interface Case {
  name: string;
  /** puts the driver as the panel on or off leaves it */
  set(mode: Mode): void;
  query(): Promise<unknown>;
  close(): Promise<void>;
}

// The queries come from an app's file, as in `app serve`: the frame found is the app's, not the bench's own.
const appDir = mkdtempSync(join(tmpdir(), 'appkernel-query-bench-'));
writeFileSync(join(appDir, 'controller.mjs'), "export function selectOne(db) { return db.query('SELECT 1'); }\n");
const { selectOne } = (await import(pathToFileURL(join(appDir, 'controller.mjs')).href)) as {
  selectOne(db: { query(sql: string): Promise<unknown> }): Promise<unknown>;
};
const settings = { root: appDir, slowQueryMs: null };

const postgres = await startTempPostgres();
// Wrapped once, as app serve does: off is the panel turned off in them (a call and a check more than
// an unwrapped driver). Wrapping and unwrapping a prototype's method between batches made V8's
// property caches miss after every switch, which read as recording's cost (2 to 7 µs per query).
wrapPgModule(pg as unknown as PgModule);
const setPg = () => {};
const client = new pg.Client({ connectionString: postgres.url });
await client.connect();
const pool = new pg.Pool({ connectionString: postgres.url, max: 1 });
// pool.end() settles before its client's socket closes: the server, stopped next, ends it with an error
pool.on('error', () => {});
await pool.query('SELECT 1');
const cases: Case[] = [
  { name: 'pg Client', set: setPg, query: () => selectOne(client), close: () => client.end() },
  { name: 'pg.Pool', set: setPg, query: () => selectOne(pool), close: () => pool.end() },
];

let mariadb: TempMariaDb | null = null;
if (process.env.BENCH_MYSQL !== '0' && ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'].some((file) => existsSync(file))) {
  mariadb = await startTempMariaDb();
  const mysql = await import('mysql2/promise');
  // as app serve finds them in the module cache (database-capture.ts): statements noted as the app wrote them
  const cached = Object.entries(createRequire(import.meta.url).cache);
  noteMysql2Statements(
    cached.find(([file]) => file.endsWith(join('mysql2', 'lib', 'base', 'connection.js')))?.[1]
      ?.exports as Mysql2StatementClass,
  );
  const connection = await mysql.createConnection(mariadb.url);
  cases.push({
    name: 'mysql2',
    // subscribed once, as app serve does: subscribing and unsubscribing between batches swapped the
    // channels' prototypes under mysql2's tracing code, 2 to 4 µs per query read as recording's cost
    set: () => startMysql2Capture(),
    query: () => selectOne(connection),
    close: () => connection.end(),
  });
}

let entries = new Map<string, unknown[]>();
/** A simulated request's recorder: each counts its own statements' runs. */
const newRecorder = (): RequestRecorder => {
  const recorder: RequestRecorder = {
    origin: performance.now(),
    elapsed: () => performance.now() - recorder.origin,
    add: (collector, value) => {
      let values = entries.get(collector);
      if (values === undefined) entries.set(collector, (values = []));
      values.push(value);
    },
  };
  return recorder;
};
const writer = new ByteWriter();
/**
 * The bytes go as the hand-off sends a dev server's requests, one at a time: copied into a shared
 * buffer it lends again and again (profile-handoff.ts, batch-buffers.ts), never into a new ArrayBuffer
 * per request, which cost this bench 1.5 to 2 µs a query more than the hand-off pays (an allocation
 * outside the heap each request).
 */
const lent = new Uint8Array(new SharedArrayBuffer(64 * 1024));
const handOver = () => {
  if (writer.length > lent.length) writer.take();
  else writer.takeInto(lent);
};
/** the first request's entries (pg Client's) as the hand-off wrote them, for the worker's side */
let written: ArrayBuffer | null = null;
/** what the floor's calls made, kept */
let kept: unknown = null;

/** One simulated request in `mode`: its ${PER_REQUEST} queries, and on its entries written as the hand-off writes them; ns of wall clock and of this process's CPU. */
async function request(test: Case, mode: Mode): Promise<{ wall: number; cpu: number }> {
  test.set(mode);
  setDatabaseCaptureSettings(
    mode === 'off' ? null : mode === 'every' ? { ...settings, stackedRuns: Number.POSITIVE_INFINITY } : settings,
  );
  enterRequestScope(newRecorder());
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < PER_REQUEST; i++) await test.query();
  if (entries.size > 0) {
    writeEntries(writer, entries);
    if (mode === 'on' && written === null) written = writer.take();
    else handOver();
  }
  const used = process.cpuUsage(cpuStart);
  const wall = Number(process.hrtime.bigint() - start);
  entries = new Map();
  enterRequestScope(null);
  setDatabaseCaptureSettings(null);
  test.set('off');
  return { wall, cpu: (used.user + used.system) * 1000 };
}

/**
 * One round: QUERIES / PER_REQUEST simulated requests in each mode, a request of each mode after the
 * other (their order turning), so that what moves the machine's speed within a round (another
 * process, a slower stretch) weighs on every mode alike; ns per query of each mode, wall and CPU.
 * Rounds of whole batches per mode, as the bench once ran, let that drift into the difference: what
 * recording adds moved between 2 and 13 µs from run to run on one build.
 */
async function round(test: Case, turn: number): Promise<Record<Mode, { wall: number; cpu: number }>> {
  const totals: Record<Mode, { wall: number; cpu: number }> = {
    on: { wall: 0, cpu: 0 },
    every: { wall: 0, cpu: 0 },
    off: { wall: 0, cpu: 0 },
  };
  const requests = Math.max(1, Math.round(QUERIES / PER_REQUEST));
  for (let r = 0; r < requests; r++) {
    for (let m = 0; m < MODES.length; m++) {
      const mode = MODES[(turn + r + m) % MODES.length];
      const spent = await request(test, mode);
      totals[mode].wall += spent.wall;
      totals[mode].cpu += spent.cpu;
    }
  }
  const queries = requests * PER_REQUEST;
  for (const mode of MODES) {
    totals[mode].wall /= queries;
    totals[mode].cpu /= queries;
  }
  return totals;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const us = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;

let pgRoundTrip = 0;
/** per case: the median round trip off (ns, wall) and the CPU recording adds, on and with every stack */
const figures: { name: string; off: number; added: number; everyAdded: number }[] = [];
const say = (line: string) => {
  if (!PINNED_PASS) console.log(line);
};
try {
  say(
    `SELECT 1 round trips, the Database panel on and off (median of ${ROUNDS} rounds of ${QUERIES} queries a mode, in requests of ${PER_REQUEST} taking turns, sequential, one connection):`,
  );
  for (const test of cases) {
    const samples: Record<Mode, { wall: number; cpu: number }[]> = { on: [], every: [], off: [] };
    await round(test, 0);
    for (let turn = 0; turn < ROUNDS; turn++) {
      const spent = await round(test, turn);
      for (const mode of MODES) samples[mode].push(spent[mode]);
    }
    const off = median(samples.off.map((s) => s.wall));
    const on = median(samples.on.map((s) => s.wall));
    const extra = samples.on.map((s, round) => ((s.wall - samples.off[round].wall) / samples.off[round].wall) * 100);
    const addedByRound = samples.on.map((s, round) => s.cpu - samples.off[round].cpu);
    const added = median(addedByRound);
    const everyAdded = median(samples.every.map((s, round) => s.cpu - samples.off[round].cpu));
    if (test === cases[0]) pgRoundTrip = off;
    figures.push({ name: test.name, off, added, everyAdded });
    say(
      `  ${test.name.padEnd(10)} round trip: off ${us(off)}, on ${us(on)}; on over off, round by round: median ${median(extra).toFixed(1)}%`,
    );
    say(
      `  ${''.padEnd(10)} this process's CPU per query: off ${us(median(samples.off.map((s) => s.cpu)))}, on ${us(median(samples.on.map((s) => s.cpu)))}; ` +
        `recording adds ${us(added)}, ${((added / off) * 100).toFixed(1)}% of the round trip (goal: at most 3%; rounds' quartiles ${us(quantile(addedByRound, 0.25))} to ${us(quantile(addedByRound, 0.75))}); ` +
        `with every stack taken (--query-stacks all) ${us(everyAdded)}, ${((everyAdded / off) * 100).toFixed(1)}%`,
    );
  }
  if (PINNED_PASS) {
    console.log(JSON.stringify(figures));
    process.exitCode = 0;
  } else pinnedPass();
  const least = PINNED_PASS ? null : await floor();
  const share = (ns: number) => `${us(ns)} (${((ns / pgRoundTrip) * 100).toFixed(1)}% of the pg Client round trip)`;
  if (least)
    console.log(
      `  the floor, in the same call shape without I/O: the request's recorder and the clock ${share(least.clock)}; ` +
        `and one captured frame ${share(least.oneFrame)}; and the panel's whole capture ${share(least.capture)}`,
    );
  if (!PINNED_PASS)
    console.log(
      `  the recording's own CPU, without I/O (a pg Client that answers at once, through the same wrapper; ${PER_REQUEST} runs of one statement a request, written as the hand-off writes them): ${share(await withoutIo())} a query`,
    );
  if (written !== null && !PINNED_PASS)
    console.log(
      `  the profiler worker's side (off the request's thread): ${us(workerSide(written))} of CPU per query of pg Client's, read back and collected into the Database panel`,
    );
} finally {
  for (const test of cases) await test.close();
  await postgres.remove();
  await mariadb?.remove();
  rmSync(appDir, { recursive: true, force: true });
}

/**
 * The CPU figures again, from this bench run under `taskset -c 0` with databases of its own: with the
 * bench and its database on one core, the process does not sleep for each answer, and what it runs
 * after is less often cold (docs/benchmarks.md); it is set against the round trips of the first pass, on
 * two cores, as a local database is used.
 */
function pinnedPass(): void {
  if (process.env.BENCH_PIN === '0') return;
  const run = spawnSync('taskset', ['-c', '0', process.execPath, fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_PINNED_PASS: '1' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const last = run.stdout?.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || !last.startsWith('[')) {
    console.log(
      `  (the pass on one core did not run: ${run.error?.message ?? `exit ${run.status}`}; BENCH_PIN=0 leaves it out)`,
    );
    return;
  }
  const pinned = JSON.parse(last) as typeof figures;
  console.log(
    "  on one core (taskset -c 0, the bench and its database), what recording adds to this process's CPU per query:",
  );
  for (const one of pinned) {
    const twoCores = figures.find((f) => f.name === one.name)?.off ?? one.off;
    console.log(
      `  ${one.name.padEnd(10)} ${us(one.added)}, ${((one.added / twoCores) * 100).toFixed(1)}% of the round trip above (goal: at most 3%); ` +
        `with every stack taken ${us(one.everyAdded)}, ${((one.everyAdded / twoCores) * 100).toFixed(1)}%; its round trip on one core: ${us(one.off)}`,
    );
  }
}

/**
 * ns per call of the least any per-query frame needs, on top of a call that records nothing, called as
 * the app calls a driver: find the request's recorder and read the clock; and capture one stack frame
 * (V8's stack walk, the same whatever is done with it after); and capture as the panel does.
 */
async function floor(): Promise<{ clock: number; oneFrame: number; capture: number }> {
  const answer = Promise.resolve(null);
  let step = 0;
  const db = {
    query(): Promise<unknown> {
      if (step === 0) return answer;
      kept = [currentRecorder(), performance.now()];
      if (step === 1) return answer;
      if (step === 2) {
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 1;
        const holder = {};
        Error.captureStackTrace(holder, db.query);
        Error.stackTraceLimit = limit;
        kept = holder;
      } else {
        kept = captureStack(db.query);
      }
      return answer;
    },
  };
  const calls = 20_000;
  const cpu: number[][] = [[], [], [], []];
  enterRequestScope(newRecorder());
  for (let round = 0; round < 9; round++) {
    for (step = 0; step < 4; step++) {
      const start = allThreadsMs(process.pid);
      for (let i = 0; i < calls; i++) await selectOne(db);
      if (round > 0) cpu[step].push(((allThreadsMs(process.pid) - start) * 1e6) / calls);
    }
  }
  enterRequestScope(null);
  const over = (s: number) => median(cpu[s].map((ns, round) => ns - cpu[0][round]));
  return { clock: over(1), oneFrame: over(2), capture: over(3) };
}

/**
 * ns of CPU per query that recording adds, on over off, through pg's wrapper round a Client that
 * answers at once (the next turn of the event loop): what the panel itself costs, apart from what the
 * round trip's I/O makes of it (caches, wake-ups), which moves from run to run by more than the
 * recording's own cost on a shared machine. Interleaved batches, the median of the differences.
 */
async function withoutIo(): Promise<number> {
  const result = { rowCount: 1, rows: [{ '?column?': 1 }] };
  class AtOnceClient {
    readonly _Promise = Promise;
    readonly host = '127.0.0.1';
    readonly port = 5432;
    readonly database = 'app';
    readonly user = 'app';
    query(_config: unknown, values?: unknown, callback?: unknown): unknown {
      const done = typeof values === 'function' ? values : callback;
      if (typeof done === 'function') {
        setImmediate(done as (error: null, result: unknown) => void, null, result);
        return undefined;
      }
      return new Promise((resolve) => setImmediate(resolve, result)).catch((error: unknown) => {
        throw error;
      });
    }
  }
  wrapPgModule({ Client: AtOnceClient } as unknown as PgModule);
  const db = new AtOnceClient() as unknown as { query(sql: string): Promise<unknown> };
  const batchOf = async (mode: 'on' | 'off'): Promise<number> => {
    setDatabaseCaptureSettings(mode === 'off' ? null : settings);
    enterRequestScope(newRecorder());
    const start = process.cpuUsage();
    for (let i = 0; i < 2_000; i++) {
      await selectOne(db);
      if ((entries.get(DATABASE_COLLECTOR)?.length ?? 0) === PER_REQUEST) {
        writeEntries(writer, entries);
        handOver();
        entries = new Map();
        enterRequestScope(newRecorder());
      }
    }
    const used = process.cpuUsage(start);
    entries = new Map();
    enterRequestScope(null);
    setDatabaseCaptureSettings(null);
    return ((used.user + used.system) * 1000) / 2_000;
  };
  const differences: number[] = [];
  for (let round = 0; round < 45; round++) {
    const [first, second] = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    const a = await batchOf(first);
    const b = await batchOf(second);
    if (round >= 5) differences.push(first === 'on' ? a - b : b - a);
  }
  return median(differences);
}

/** CPU ns per query for the worker to read a request's queries back and build its Database panel (redaction, shapes, runnable SQL). */
function workerSide(record: ArrayBuffer): number {
  const runs = 2_000;
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    const start = allThreadsMs(process.pid);
    for (let i = 0; i < runs; i++) {
      const read = readEntries(new ByteReader(record), [], null)!;
      collectDatabase({ entries: read, secrets: new SecretValues() } as unknown as CollectContext);
    }
    times.push(((allThreadsMs(process.pid) - start) * 1e6) / runs / PER_REQUEST);
  }
  return median(times);
}
