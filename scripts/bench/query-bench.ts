// bench:query — what recording a query costs: sequential `SELECT 1` round trips to a local PostgreSQL
// through pg, with the Database panel on (the query recorded into a request's scope, and each batch's
// records turned into the JSON the hand-off sends: stack frame, source maps, parameters) and off (pg
// wrapped as the panel leaves it, passing through), in one run. Each round times a batch of each, in
// alternating order, on one connection, so that the machine's load weighs on both alike.
// Goal (issue 41): on costs at most 3% over off.
// Usage: node dist/scripts/bench/query-bench.js   (BENCH_ROUNDS, BENCH_QUERIES per batch; a throwaway
// PostgreSQL is started unless APPKERNEL_TEST_DATABASE_URL is set)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { setDatabaseCaptureSettings } from '../../core/debug/database-capture-settings.js';
import { wrapPgModule, type PgModule } from '../../core/debug/pg-query-capture.js';
import { enterRequestScope, type RequestRecorder } from '../../core/debug/request-scope.js';
import { startTempPostgres } from '../../tests/helpers/temp-postgres.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2_000);
/** queries per simulated request: its records are serialised as the hand-off does, then dropped */
const PER_REQUEST = 20;
const MODES = ['on', 'off'] as const;
type Mode = (typeof MODES)[number];

const server = await startTempPostgres();
wrapPgModule(pg as unknown as PgModule);
const client = new pg.Client({ connectionString: server.url });
await client.connect();
// The queries come from an app's file, as in `app serve`: the frame found is the app's, not the bench's own.
const appDir = mkdtempSync(join(tmpdir(), 'appkernel-query-bench-'));
writeFileSync(join(appDir, 'controller.mjs'), 'export function selectOne(client) { return client.query(\'SELECT 1\'); }\n');
const { selectOne } = await import(pathToFileURL(join(appDir, 'controller.mjs')).href) as { selectOne(client: pg.Client): Promise<unknown> };

let records: unknown[] = [];
const recorder: RequestRecorder = { origin: performance.now(), elapsed: () => performance.now() - recorder.origin, add: (_, value) => { records.push(value); } };

/** this process's CPU per query over the last batch, ns (less moved than the wall clock by the other processes of a shared machine) */
const cpu: Record<Mode, number[]> = { on: [], off: [] };

/** ns per query over one batch. */
async function batch(mode: Mode): Promise<number> {
  setDatabaseCaptureSettings(mode === 'on' ? { root: appDir, slowQueryMs: null } : null);
  enterRequestScope(recorder);
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < QUERIES; i++) {
    await selectOne(client);
    if (records.length === PER_REQUEST) {
      JSON.stringify(records);
      records = [];
    }
  }
  const ns = Number(process.hrtime.bigint() - start) / QUERIES;
  const used = process.cpuUsage(cpuStart);
  cpu[mode].push(((used.user + used.system) * 1000) / QUERIES);
  records = [];
  enterRequestScope(null);
  return ns;
}

const samples: Record<Mode, number[]> = { on: [], off: [] };
try {
  for (const mode of MODES) await batch(mode);
  for (const mode of MODES) cpu[mode].length = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse()) samples[mode].push(await batch(mode));
    process.stderr.write(`round ${round + 1}/${ROUNDS}: ${MODES.map((m) => `${m} ${(samples[m].at(-1)! / 1000).toFixed(1)} µs`).join(', ')}\n`);
  }
} finally {
  await client.end();
  await server.remove();
  rmSync(appDir, { recursive: true, force: true });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const extra = samples.on.map((on, round) => ((on - samples.off[round]) / samples.off[round]) * 100).sort((a, b) => a - b);
const quartile = (q: number) => extra[Math.round(q * (extra.length - 1))];
console.log(`SELECT 1 round trips through pg to a local PostgreSQL (median of ${ROUNDS} rounds of ${QUERIES} queries):`);
console.log(`  Database panel on   ${(median(samples.on) / 1000).toFixed(1)} µs`);
console.log(`  Database panel off  ${(median(samples.off) / 1000).toFixed(1)} µs`);
console.log(`  on over off, round by round: median ${median(extra).toFixed(1)}%, quartiles ${quartile(0.25).toFixed(1)}% .. ${quartile(0.75).toFixed(1)}% (goal: at most 3%)`);
const added = median(cpu.on.map((on, round) => on - cpu.off[round]));
console.log(`  this process's CPU per query: on ${(median(cpu.on) / 1000).toFixed(1)} µs, off ${(median(cpu.off) / 1000).toFixed(1)} µs; recording adds ${(added / 1000).toFixed(2)} µs, `
  + `${((added / median(samples.off)) * 100).toFixed(1)}% of the round trip with the panel off`);
