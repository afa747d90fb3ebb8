// bench:stages — what one request costs the event loop at each stage of the profiler, measured in
// this process without sockets (so without the noise of a load test on a shared machine): the kernel
// with the profiler off, the kernel with it on and the profile built, the profile's serialisation,
// and the store's write path on the main thread. Set against bench:http's "main µs/req" of node:http,
// these figures say how much of the budget each stage takes.
// Usage: node dist/scripts/bench/stages-bench.js [path ...]   (default: /static /hello/world /nope)
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { createAppKernel } from '../../server/kernel-factory.js';
import { Request } from '../../core/http/request.js';
import { memoizeSourceMappedStacks } from '../../core/kernel/source-mapped-stacks.js';
import { buildProfile } from '../../core/profiler/build-profile.js';
import { liveTraceFacts } from '../../core/profiler/trace-facts.js';
import type { Profile, ProfileSummary } from '../../core/profiler/profile.js';
import { combinedRoutes } from '../../core/kernel/build-kernel.js';
import { profilerRoutes, WebProfiler } from '../../web-profiler/web-profiler.js';
import { summarize } from '../../core/profiler/storage/index-line.js';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import type { StoredEntry } from '../../core/profiler/storage/profile-storage.js';
import { openProfileIntake, type ProfileIntake } from '../../core/profiler/handoff/profile-intake.js';
import { toStoredForm } from '../../core/profiler/storage/stored-form.js';
import { buildRecordedProfiles, storedEntries } from '../../core/profiler/handoff/build-batch.js';
import { ByteWriter } from '../../core/profiler/handoff/byte-writer.js';
import { writeRequestRecord } from '../../core/profiler/handoff/request-record.js';
import { RouteTables, routeTableData } from '../../core/profiler/handoff/route-tables.js';
import { RecordingTrace, traceNames } from '../../core/kernel/request-trace.js';
import type { RouteCollection } from '../../core/routing/route-collection.js';
import { serveConfig } from '../../server/serve-config.js';
import { app } from './bench-app.js';
import { profileFromStoredRecord, STORED_RECORD } from '../../core/profiler/stored-record.js';
import { renderProfilePage } from '../../web-profiler/views/profile-page.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 2_000);
const paths = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/static', '/hello/world', '/nope'];
for (const path of paths) {
  if (!path.startsWith('/')) {
    console.error(
      `bench:stages: "${path}" is not a path (it must start with "/"). Usage: node dist/scripts/bench/stages-bench.js [/path ...]`,
    );
    process.exit(2);
  }
}
const HEADERS = { host: '127.0.0.1:8000', 'user-agent': 'bench', accept: '*/*' };
const EMPTY = Buffer.alloc(0);

// As `app serve` runs: stacks read through source maps, memoized.
process.setSourceMapsEnabled(true);
memoizeSourceMappedStacks();

/** The least µs per item over ROUNDS rounds: the least disturbed by the rest of the machine. */
async function best(work: (i: number) => unknown | Promise<unknown>, items = PER_ROUND): Promise<number> {
  let least = Infinity;
  for (let round = -2; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < items; i++) {
      const pending = work(i);
      if (pending instanceof Promise) await pending;
    }
    const us = Number(process.hrtime.bigint() - start) / 1000 / items;
    if (round >= 0) least = Math.min(least, us);
  }
  return least;
}

/** ms of CPU this process's main thread has used (the event loop; not the compression worker). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A store that takes every profile the worker sends back and keeps none (or hands each to `keep`). */
function storeStub(keep: (json: Buffer, summary: ProfileSummary) => void = () => {}): ProfileIntake {
  return {
    announce: () => true,
    writeBatch: (entries: StoredEntry[]) => {
      for (const { json, summary } of entries) keep(json, summary);
    },
    cancel: () => {},
    has: () => false,
    nextToken: () => null,
  } as unknown as ProfileIntake;
}

/** `config`: the configuration panel's data as `app serve` gives it (its environment included); none by default. */
/** The profiler of each store the bench hands a kernel, one per store as `app serve` makes it. */
const profilers = new Map<ProfileIntake, WebProfiler>();

function profilerOf(storage: ProfileIntake): WebProfiler {
  let profiler = profilers.get(storage);
  if (!profiler)
    profilers.set(storage, (profiler = new WebProfiler(storage, (message) => console.error(`warning: ${message}`))));
  return profiler;
}

function kernelFor(debug: boolean, storage: ProfileIntake, config = false) {
  return createAppKernel(app, {
    debug,
    root: process.cwd(),
    profiler: debug ? profilerOf(storage) : null,
    config: config ? serveConfig({ appFile: null, root: process.cwd(), storeDir: null, options: {} }) : null,
  });
}

function newRequest(path: string): Request {
  return new Request({ method: 'GET', target: path, headers: HEADERS, body: EMPTY, clientIp: '127.0.0.1' });
}

/**
 * Main-thread CPU per profile of the real store's fallback path (the worker gone: it sends the JSON
 * back): the intake's announce() and writeBatch() as the hand-off calls them, then the store's batches,
 * paced as under load (16 a millisecond: batches of the usual size run between them). The pacing's
 * own cost, measured alone, is taken off.
 */
async function fallbackStoreCost(profiles: readonly { json: Buffer; summary: ProfileSummary }[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-stages-'));
  const storage = await openProfileIntake(dir, {
    maxProfiles: 1_000_000,
    maxBytes: 4096 * 1024 * 1024,
    warn: (message) => console.error(`warning: ${message}`),
  });
  const total = 20_000;
  const start = Date.now();
  const paced = async (write: (i: number) => void): Promise<number> => {
    const before = mainThreadCpuMs();
    for (let i = 0; i < total; i++) {
      write(i);
      if (i % 16 === 15) await new Promise((done) => setTimeout(done, 1));
    }
    await storage.flush();
    return mainThreadCpuMs() - before;
  };
  try {
    const pacing = await paced(() => {});
    // A token and a time of its own, later than the one before, as the kernel gives them.
    const writing = await paced((i) => {
      const { json, summary } = profiles[i % profiles.length];
      const token = (i + 0x100000).toString(16);
      storage.announce(token);
      storage.writeBatch([{ json, summary: { ...summary, token, time: start + i / 1000 } }]);
    });
    return (Math.max(0, writing - pacing) * 1000) / total;
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const PACED_REQUESTS = 20_000;

/** Main-thread CPU µs per request of `work`, paced as under load (16 a millisecond), until `done` says its results are all in. */
async function pacedCpu(work: () => Promise<unknown>, done: () => boolean = () => true): Promise<number> {
  const before = mainThreadCpuMs();
  for (let i = 0; i < PACED_REQUESTS; i++) {
    await work();
    if (i % 16 === 15) await new Promise((resume) => setTimeout(resume, 1));
  }
  for (const deadline = Date.now() + 10_000; !done() && Date.now() < deadline; )
    await new Promise((resume) => setTimeout(resume, 5));
  return ((mainThreadCpuMs() - before) * 1000) / PACED_REQUESTS;
}

/**
 * Main-thread CPU µs per request, paced: the kernel with the profiler off, and on with the hand-off
 * (handle(), terminate(), the batches' transfer, the worker's replies taken in), and on with a real
 * file store that the worker writes (the same, plus the worker's reports of what it stored taken in
 * and the store's index catching up with the worker's segment). Each is the least of three runs; the
 * pacing's own cost, measured alone, is taken off, as fallbackStoreCost() does.
 */
async function pacedCosts(path: string): Promise<{ off: number; handoff: number; stored: number; pacing: number }> {
  let back = 0;
  const on = kernelFor(
    true,
    storeStub(() => {
      back++;
    }),
  );
  const plain = kernelFor(false, storeStub());
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-stages-'));
  const storage = await openProfileIntake(dir, {
    maxProfiles: 1_000_000,
    maxBytes: 4096 * 1024 * 1024,
    warn: (message) => console.error(`warning: ${message}`),
  });
  // Settled: stored, dropped by the worker's store, or refused at announce() (the queue full).
  let settled = 0;
  let refused = 0;
  const announce = storage.announce.bind(storage);
  storage.announce = (token) => announce(token) || (settled++, refused++, false);
  const settle = storage.written.bind(storage);
  storage.written = (report, elsewhere) => {
    if (elsewhere) settled += report.stored.length + report.dropped.length;
    settle(report, elsewhere);
  };
  const writing = kernelFor(true, storage);
  const least = { off: Infinity, handoff: Infinity, stored: Infinity, pacing: Infinity };
  try {
    for (let run = 0; run < 3; run++) {
      least.pacing = Math.min(least.pacing, await pacedCpu(async () => {}));
      least.off = Math.min(least.off, await pacedCpu(() => plain.handle(newRequest(path))));
      back = 0;
      least.handoff = Math.min(
        least.handoff,
        await pacedCpu(
          async () => {
            const request = newRequest(path);
            await on.terminate(request, await on.handle(request));
          },
          () => back >= PACED_REQUESTS,
        ),
      );
      settled = 0;
      least.stored = Math.min(
        least.stored,
        await pacedCpu(
          async () => {
            const request = newRequest(path);
            await writing.terminate(request, await writing.handle(request));
          },
          () => settled >= PACED_REQUESTS,
        ),
      );
    }
  } finally {
    await profilerOf(storage).close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const pacing = least.pacing;
  if (refused > 0)
    notes.push(
      `${path}: the store the worker writes refused ${refused} of ${3 * PACED_REQUESTS} profiles at this pace (its queue full: the worker fell behind); a refused one costs the main thread less.`,
    );
  return {
    off: Math.max(0, least.off - pacing),
    handoff: Math.max(0, least.handoff - pacing),
    stored: Math.max(0, least.stored - pacing),
    pacing,
  };
}

/** Records gathered per batch, as the hand-off does (profile-handoff.ts). */
const BATCH_RECORDS = 64;

/**
 * The records `app serve` hands the profiler worker for `path` (its configuration panel's data
 * included), in batches as the hand-off writes them, and the trace names they refer to.
 */
async function serveRecords(path: string, batches: number): Promise<ArrayBuffer[]> {
  const serving = kernelFor(true, storeStub(), true);
  const records: ArrayBuffer[] = [];
  const writer = new ByteWriter();
  let known = 0;
  for (let b = 0; b < batches; b++) {
    for (let i = 0; i < BATCH_RECORDS; i++) {
      const request = newRequest(path);
      const response = await serving.handle(request);
      const trace = serving.traceOf(request);
      if (!(trace instanceof RecordingTrace)) throw new Error('bench:stages: the kernel did not trace the request');
      const at = writer.reserve32();
      const names = traceNames();
      writeRequestRecord(writer, request, trace, response, 0, names, known);
      writer.patch32(at, writer.length - at - 4);
      known = names.length;
      await serving.terminate(request, response);
    }
    records.push(writer.take());
  }
  return records;
}

/**
 * What the profiler worker costs per profile of `path` as \`app serve\` records it: its batches read,
 * built and serialised (buildRecordedProfiles), the least of ROUNDS rounds; and its thread's CPU per
 * profile for that plus writing them into a real file store as the worker does (blocks compressed,
 * segment, index lines), 20,000 profiles
 * written 128 at a time, the least of 3 runs.
 */
async function workerCost(
  path: string,
  routes: RouteCollection,
): Promise<{ build: number; read: number; stored: number }> {
  const batches = await serveRecords(path, 16);
  const tables = new RouteTables();
  tables.set(0, routeTableData(routes));
  const names: string[] = [];
  // The first pass reads the trace names in the order they were sent.
  for (const batch of batches) buildRecordedProfiles(batch, tables, names);
  const perRound = Math.max(1, Math.round(PER_ROUND / BATCH_RECORDS));
  const build =
    (await best((i) => buildRecordedProfiles(batches[i % batches.length], tables, names), perRound)) / BATCH_RECORDS;
  // every record read back, as a request unlike any stored before is (no record shapes: record-shapes.ts)
  const read =
    (await best((i) => buildRecordedProfiles(batches[i % batches.length], tables, names, null), perRound)) /
    BATCH_RECORDS;
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-stages-'));
  const storage = await openFileStorage({
    dir,
    maxProfiles: 1_000_000,
    maxBytes: 4096 * 1024 * 1024,
    compressInWorker: false,
    onWarning: (message) => console.error(`warning: ${message}`),
  });
  let stored = Infinity;
  let written = 0;
  const start = Date.now();
  try {
    for (let run = 0; run < 3; run++) {
      const before = mainThreadCpuMs();
      const total = 20_000;
      for (let b = 0; b < total / BATCH_RECORDS; b++) {
        const entries = storedEntries(buildRecordedProfiles(batches[b % batches.length], tables, names));
        for (const { summary } of entries) {
          // A token and a time of its own, later than the one before, as the kernel gives them.
          summary.token = (written + 0x100000).toString(16);
          summary.time = start + written++ / 1000;
        }
        storage.writeBatch(entries);
        // As under load, when the main thread holds requests back while the store is behind: its queue never overflows.
        if (b % 2 === 1) await storage.flush();
      }
      await storage.flush();
      stored = Math.min(stored, ((mainThreadCpuMs() - before) * 1000) / total);
    }
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { build, read, stored };
}

const LOG_RECORDS = 1_000;

/**
 * A profile of a request that wrote LOG_RECORDS log records, as its page reads it: built from its
 * stored record (readStoredEntry's cache left out), then its log panel's page rendered; ms each,
 * the least of ROUNDS rounds.
 */
async function logProfileCost(routes: RouteCollection): Promise<{ build: number; page: number }> {
  const [batch] = await serveRecords(`/log/${LOG_RECORDS}`, 1);
  const tables = new RouteTables();
  tables.set(0, routeTableData(routes));
  const built = buildRecordedProfiles(batch, tables, []);
  const entry = new Uint8Array(built.jsons, 0, built.lengths[0]);
  if (entry[0] !== STORED_RECORD)
    throw new Error(`bench:stages: the profile of /log/${LOG_RECORDS} was not stored as a record`);
  const profile = profileFromStoredRecord(entry);
  if (profile.collectors.log.records.length < LOG_RECORDS)
    throw new Error(
      `bench:stages: the profile holds ${profile.collectors.log.records.length} log records, not ${LOG_RECORDS}`,
    );
  const build = (await best(() => profileFromStoredRecord(entry), 20)) / 1000;
  const page = (await best(() => renderProfilePage(profile, { panel: 'log' }), 20)) / 1000;
  return { build, page };
}

const rows: string[][] = [];
const notes: string[] = [];
const routes = combinedRoutes(app, [{ routes: profilerRoutes() }]);
for (const path of paths) {
  const plain = kernelFor(false, storeStub());
  const off = await best(async () => plain.handle(newRequest(path)));
  const handing = kernelFor(true, storeStub());
  const on = await best(async () => {
    const request = newRequest(path);
    const response = await handing.handle(request);
    await handing.terminate(request, response);
  });
  const serving = kernelFor(true, storeStub(), true);
  const onServe = await best(async () => {
    const request = newRequest(path);
    const response = await serving.handle(request);
    await serving.terminate(request, response);
  });
  const paced = await pacedCosts(path);
  const pairs: { request: Request; response: Awaited<ReturnType<typeof plain.handle>> }[] = [];
  const keeping = kernelFor(true, storeStub());
  for (let i = 0; i < 200; i++) {
    const request = newRequest(path);
    pairs.push({ request, response: await keeping.handle(request) });
  }
  const build = ({ request, response }: (typeof pairs)[number]) =>
    buildProfile(request, liveTraceFacts(request, keeping.traceOf(request)), response, routes);
  const built = await best((i) => build(pairs[i % pairs.length]));
  const profiles: Profile[] = pairs.map(build);
  const json = await best((i) => JSON.stringify(toStoredForm(profiles[i % profiles.length])));
  const v8 = await best((i) => serialize(toStoredForm(profiles[i % profiles.length])));
  const fallback = await fallbackStoreCost(
    profiles.map((profile) => ({
      json: Buffer.from(JSON.stringify(toStoredForm(profile))),
      summary: summarize(profile),
    })),
  );
  const bytes = Buffer.byteLength(JSON.stringify(toStoredForm(profiles[0])));
  const store = Math.max(0, paced.stored - paced.handoff);
  const worker = await workerCost(path, routes);
  rows.push(
    [
      path,
      String(profiles[0].status),
      off,
      on,
      onServe,
      paced.off,
      paced.handoff,
      paced.handoff - paced.off,
      built,
      json,
      worker.build,
      worker.read,
      worker.stored,
      v8,
      store,
      paced.stored,
      fallback,
      bytes,
      paced.pacing,
    ].map((v) => (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(1) : String(v))),
  );
}

console.log(
  `In-process µs per request on the main thread (the least of ${ROUNDS} rounds of ${PER_ROUND}); Node ${process.version}\n`,
);
const head = [
  'path',
  'status',
  'kernel, off',
  'kernel, on + record',
  'on + record, serve config',
  'off, CPU',
  'on + hand-off, CPU',
  'hand-off over off',
  'profile build',
  'JSON',
  'worker, serve records',
  'worker, each read',
  'worker + store, CPU',
  'v8.serialize',
  'store write path',
  'profiler on, total',
  'store, fallback',
  'JSON bytes',
  'pacing',
];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
console.log(head.map((h, i) => h.padStart(widths[i])).join('  '));
for (const row of rows) console.log(row.map((c, i) => c.padStart(widths[i])).join('  '));
console.log(`
kernel, off: new Request + kernel.handle() with the profiler off (--no-debug).
kernel, on + record: the same traced, with kernel.terminate() writing the request's record for the
  profiler worker (the least of the rounds, as the other timed columns).
on + record, serve config: the same with the configuration panel's data as \`app serve\` records it
  (versions, options, the process's environment) in every profile.
off, CPU: the main thread's CPU per request over 20,000 requests paced as under load (16 a ms),
  the profiler off (--no-debug), the pacing's own CPU (last column, measured alone) taken off.
on + hand-off, CPU: the same with the profiler on: handle, terminate, the batches' transfer to the
  worker and its replies taken in (the worker's own CPU not counted), the pacing taken off.
hand-off over off: the difference of the two: what tracing and handing off cost the main thread
  over the --no-debug kernel, both measured the same way (least of 3 runs each).
profile build, JSON: building a profile from a request's facts and its JSON text, as a reader (a page,
  the CLI) does when it opens a stored record; the worker builds one only for a request whose record
  the redaction policy changes. Both leave out the configuration panel and the reading of the record.
worker, serve records: the profiler worker's work per profile as \`app serve\` hands it over: records
  with the configuration panel's data, 64 a batch, written as stored records with their summaries
  (buildRecordedProfiles); a record like one stored before (the same request again, as here) is stored
  as that one was, without being read back (record shapes).
worker, each read: the same with every record read back and checked against the redaction policy, as
  a request unlike any stored before is.
worker + store, CPU: the worker thread's CPU per profile for the same plus writing the profiles into a
  real file store as the worker does (20,000, 128 at a time, their blocks compressed in that thread).
v8.serialize: the profile as structured-clone bytes, what posting it to another thread would cost instead.
store write path: what the file store costs the main thread now that the profiler worker writes it:
  on + hand-off with a real store the worker writes (its reports of what it stored taken in, the
  store's index catching up with the worker's segment) less on + hand-off with a store that keeps nothing.
profiler on, total: on + hand-off, CPU with the real store (= on + hand-off, CPU + store write path). Add the socket work node:http itself
does (its "main µs/req" in bench:http) to compare either column with it.
store, fallback: the intake's announce() and writeBatch() and the store's batches (index lines, appends) on the
  main thread, as when the worker has failed and sends no more than JSON back.`);
const logged = await logProfileCost(routes);
console.log(
  `\nA profile of ${LOG_RECORDS.toLocaleString('en')} log records: built from its stored record in ${logged.build.toFixed(2)} ms, its log panel's page rendered in ${logged.page.toFixed(2)} ms.`,
);
for (const note of notes) console.log(`\nnote: ${note}`);
