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
import { createAppKernel } from '../../core/app/kernel-factory.js';
import { Request } from '../../core/http/request.js';
import { memoizeSourceMappedStacks } from '../../core/kernel/source-mapped-stacks.js';
import type { Profile } from '../../core/profiler/profile.js';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import type { ProfileStorage } from '../../core/profiler/storage/profile-storage.js';
import { toStoredForm } from '../../core/profiler/storage/stored-form.js';
import { app } from './bench-app.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 2_000);
const paths = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/static', '/hello/world', '/nope'];
for (const path of paths) {
  if (!path.startsWith('/')) {
    console.error(`bench:stages: "${path}" is not a path (it must start with "/"). Usage: node dist/scripts/bench/stages-bench.js [/path ...]`);
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

function kernelFor(debug: boolean, write: (profile: Profile) => void) {
  const storage = { write, has: () => false } as unknown as ProfileStorage;
  return createAppKernel(app, { debug, root: process.cwd(), storage: debug ? storage : null });
}

function newRequest(path: string): Request {
  return new Request({ method: 'GET', target: path, headers: HEADERS, body: EMPTY, clientIp: '127.0.0.1' });
}

/**
 * Main-thread CPU per profile of the real store: write() as the kernel calls it, then its batches,
 * paced as under load (16 a millisecond: batches of the usual size run between them). The pacing's
 * own cost, measured alone, is taken off.
 */
async function storeCost(profiles: readonly Profile[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-stages-'));
  const storage = await openFileStorage({ dir, maxProfiles: 1_000_000, maxBytes: 4096 * 1024 * 1024, onWarning: (message) => console.error(`warning: ${message}`) });
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
    const writing = await paced((i) => storage.write({ ...profiles[i % profiles.length], token: (i + 0x100000).toString(16), time: start + i / 1000 }));
    return (Math.max(0, writing - pacing) * 1000) / total;
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: string[][] = [];
for (const path of paths) {
  const plain = kernelFor(false, () => {});
  const off = await best(async () => plain.handle(newRequest(path)));
  const dropped = kernelFor(true, () => {});
  const on = await best(async () => {
    const request = newRequest(path);
    const response = await dropped.handle(request);
    await dropped.terminate(request, response);
  });
  const profiles: Profile[] = [];
  const keeping = kernelFor(true, (profile) => profiles.push(profile));
  for (let i = 0; i < 200; i++) {
    const request = newRequest(path);
    await keeping.terminate(request, await keeping.handle(request));
  }
  const json = await best((i) => JSON.stringify(toStoredForm(profiles[i % profiles.length])));
  const v8 = await best((i) => serialize(toStoredForm(profiles[i % profiles.length])));
  const store = await storeCost(profiles);
  const bytes = Buffer.byteLength(JSON.stringify(toStoredForm(profiles[0])));
  rows.push([path, String(profiles[0].status), off, on, json, v8, store, on + store, bytes].map((v) => (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(1) : String(v))));
}

console.log(`In-process µs per request on the main thread (the least of ${ROUNDS} rounds of ${PER_ROUND}); Node ${process.version}\n`);
const head = ['path', 'status', 'kernel, off', 'kernel, on + profile', 'JSON of profile', 'v8.serialize', 'store write path', 'profiler on, total', 'JSON bytes'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
console.log(head.map((h, i) => h.padStart(widths[i])).join('  '));
for (const row of rows) console.log(row.map((c, i) => c.padStart(widths[i])).join('  '));
console.log(`
kernel, off: new Request + kernel.handle() with the profiler off (--no-debug).
kernel, on + profile: the same traced, with kernel.terminate() and the profile built (not stored).
JSON of profile: its stored form as JSON text, part of the store's write path.
v8.serialize: the same profile as structured-clone bytes, what handing it to another thread would cost instead.
store write path: FileStorage.write() and its batches (UTF-8 copy, index lines, appends), main thread only.
profiler on, total: kernel on + profile + store write path. Add the socket work node:http itself
does (its "main µs/req" in bench:http) to compare either column with it.`);
