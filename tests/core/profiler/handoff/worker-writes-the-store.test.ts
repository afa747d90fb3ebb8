import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../../core/app/app.js';
import { Request } from '../../../../core/http/request.js';
import { combinedRoutes } from '../../../../core/kernel/build-kernel.js';
import { ProfileHandoff } from '../../../../core/profiler/handoff/profile-handoff.js';
import { openFileStorage, type FileStorage } from '../../../../core/profiler/storage/file-storage.js';
import { createAppKernel } from '../../../../server/kernel-factory.js';
import { profilerRoutes, WebProfiler } from '../../../../web-profiler/web-profiler.js';
import { openTempStore, type TempStore } from '../storage/temp-store.js';
import { ProfileIntake } from '../../../../core/profiler/handoff/profile-intake.js';

// The profiler worker writes the file store itself: the main thread only announces each profile and
// settles it when the worker reports it stored, then reads it from the segment the worker appends to.
// Each read follows a flush(): a read waits 1 s at most for a profile on its way, which a worker
// starting on a loaded machine can overrun; flush() waits for the announced ones (up to 5 s).

const test = suite('the profiler worker writes the profiles it builds into the file store');

const app = createApp({ name: 'writer' }).get('hello', '/hello/{name}', ({ params }) => `Hello ${params.name}`);
const routes = combinedRoutes(app, [{ routes: profilerRoutes() }]);

interface Serving {
  handoff: ProfileHandoff;
  warnings: string[];
  /** answers GET /hello/<name> and hands its record over; resolves to the token */
  serve(name: string): Promise<string>;
}

const intakes = new WeakMap<FileStorage, ProfileIntake>();
/** The store as a server writes and reads it: behind its intake (one per store), which waits for profiles in flight. */
function intakeOf(storage: FileStorage): ProfileIntake {
  let intake = intakes.get(storage);
  if (!intake)
    intakes.set(storage, (intake = new ProfileIntake({ store: storage, serving: storage }, { warn: () => {} })));
  return intake;
}

/** `prepare`: runs once the kernel (and its own hand-off, which this test does not use) is made */
function serving(storage: FileStorage, workerUrl?: URL, prepare = () => {}): Serving {
  const warnings: string[] = [];
  const kernel = createAppKernel(app, {
    debug: true,
    root: process.cwd(),
    profiler: new WebProfiler(intakeOf(storage), (message) => warnings.push(message)),
  });
  prepare();
  const handoff = new ProfileHandoff(intakeOf(storage), (message) => warnings.push(message), workerUrl);
  const table = handoff.addRoutes(routes);
  return {
    handoff,
    warnings,
    async serve(name) {
      const request = new Request({
        method: 'GET',
        target: `/hello/${name}`,
        headers: { host: '127.0.0.1' },
        body: Buffer.alloc(0),
        clientIp: '127.0.0.1',
      });
      const response = await kernel.handle(request);
      const trace = kernel.traceOf(request);
      handoff.submit(request, trace, response, table);
      return trace.token!;
    },
  };
}

const segments = (dir: string) =>
  readdirSync(dir)
    .filter((file) => file.endsWith('.log'))
    .sort();

let store: TempStore | null = null;
let others: FileStorage[] = [];
let handoffs: ProfileHandoff[] = [];
test.after.each(async () => {
  for (const handoff of handoffs) await handoff.close();
  for (const other of others) await other.close();
  await store?.remove();
  store = null;
  others = [];
  handoffs = [];
});

test('when a response is handed over, then the main store knows its token all along, reads it at once, and never queued it itself', async () => {
  store = await openTempStore();
  const { handoff, serve, warnings } = serving(store.storage);
  handoffs.push(handoff);
  let queuedHere = 0;
  for (let round = 0; round < 5; round++) {
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => serve(`r${round}n${i}`)));
    // has() must know each token from the answer on, through the worker's report, without a read in between.
    for (const until = Date.now() + 150; Date.now() < until; ) {
      for (const token of tokens) assert.ok(intakeOf(store.storage).has(token), `has(${token})`);
      queuedHere = Math.max(queuedHere, intakeOf(store.storage).stats().queued);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await intakeOf(store.storage).flush();
    for (const [i, token] of tokens.entries())
      assert.is((await intakeOf(store.storage).read(token))?.url, `http://127.0.0.1/hello/r${round}n${i}`);
  }
  assert.is(queuedHere, 0, "no profile went through the main thread's write queue");
  assert.is((await intakeOf(store.storage).search({ limit: 1000 })).length, 100);
  assert.equal(warnings, []);
  assert.equal(store.warnings, []);
});

test('when batch after batch travels in the shared buffers, then each buffer is posted to the worker once and later batches name it', async () => {
  store = await openTempStore();
  const { handoff, serve } = serving(store.storage);
  handoffs.push(handoff);
  const batches: { buffer?: number; records?: unknown }[] = [];
  const postMessage = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, transfer?: readonly unknown[]) {
    if ((message as { type?: string })?.type === 'batch') batches.push(message as (typeof batches)[number]);
    return postMessage.call(this, message, transfer as never);
  };
  try {
    for (let round = 0; round < 6; round++) {
      const tokens = await Promise.all(Array.from({ length: 10 }, (_, i) => serve(`s${round}n${i}`)));
      await intakeOf(store.storage).flush();
      for (const [i, token] of tokens.entries())
        assert.is((await intakeOf(store.storage).read(token))?.url, `http://127.0.0.1/hello/s${round}n${i}`);
    }
  } finally {
    Worker.prototype.postMessage = postMessage;
  }
  const named = new Set(batches.map((batch) => batch.buffer));
  assert.ok(batches.length >= 6, `${batches.length} batches`);
  assert.ok(named.size < batches.length, 'a buffer carried more than one batch');
  assert.ok(
    batches.every((batch) => typeof batch.buffer === 'number'),
    'each batch travels in a shared buffer',
  );
  const carried = batches.filter((batch) => batch.records !== undefined);
  assert.ok(
    carried.every((batch) => batch.records instanceof SharedArrayBuffer),
    'what a batch carries is a shared buffer',
  );
  assert.is(carried.length, named.size, 'each shared buffer was posted once');
});

test('when the main thread prunes and rebuilds the index, then the segment the worker appends to is neither dropped nor repaired', async () => {
  store = await openTempStore();
  const { handoff, serve } = serving(store.storage);
  handoffs.push(handoff);
  const first = await Promise.all(Array.from({ length: 10 }, (_, i) => serve(`a${i}`)));
  await intakeOf(store.storage).flush();
  for (const token of first) assert.ok(await intakeOf(store.storage).read(token));
  const [segment] = segments(store.dir);
  const idx = join(store.dir, segment.replace(/\.log$/, '.idx'));
  const inode = statSync(idx).ino;
  assert.is(await intakeOf(store.storage).prune({ keep: 0 }), 10);
  assert.is(await store.storage.rebuildIndex(), 0);
  assert.equal(segments(store.dir), [segment], "the worker's segment is still there");
  assert.is(statSync(idx).ino, inode, 'its index was not rewritten');
  const second = await Promise.all(Array.from({ length: 10 }, (_, i) => serve(`b${i}`)));
  await intakeOf(store.storage).flush();
  for (const token of second) assert.ok(await intakeOf(store.storage).read(token), token);
  assert.equal(segments(store.dir), [segment], 'the worker still appends to it');
  assert.equal(store.warnings, []);
});

test('when the worker writes with --max-profiles 160, then the store keeps between 15/16 of it and 160, the newest among them', async () => {
  store = await openTempStore({ maxProfiles: 160 });
  const { handoff, serve } = serving(store.storage);
  handoffs.push(handoff);
  let last = '';
  for (let burst = 0; burst < 20; burst++) {
    const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => serve(`n${burst * 50 + i}`)));
    last = tokens[tokens.length - 1];
    // Each burst stored before the next (a read waits 1 s at most, which a loaded machine can overrun).
    await intakeOf(store.storage).flush();
    assert.ok(await intakeOf(store.storage).read(last));
  }
  await handoff.close();
  await intakeOf(store.storage).flush();
  const listed = await intakeOf(store.storage).search({ limit: 10_000 });
  assert.ok(listed.length <= 160 && listed.length >= 150, `${listed.length} profiles`);
  assert.is(listed[0].token, last);
  assert.is(intakeOf(store.storage).stats().dropped, 0);
});

test('when two stores of one process share a folder, each with its worker writing, then each reads what the other wrote', async () => {
  store = await openTempStore();
  const other = await openFileStorage({ dir: store.dir });
  others.push(other);
  const a = serving(store.storage);
  const b = serving(other);
  handoffs.push(a.handoff, b.handoff);
  const fromA = await Promise.all(Array.from({ length: 10 }, (_, i) => a.serve(`a${i}`)));
  const fromB = await Promise.all(Array.from({ length: 10 }, (_, i) => b.serve(`b${i}`)));
  // Two workers starting at once can take longer, on a loaded machine, than a read waits for a
  // profile on its way (1 s): each main store waits for its announced profiles (up to 5 s), then
  // the other finds them on disk.
  await Promise.all([intakeOf(store.storage).flush(), intakeOf(other).flush()]);
  for (const token of fromA) assert.ok(await intakeOf(store.storage).read(token), token);
  for (const token of fromB) assert.ok(await intakeOf(other).read(token), token);
  for (const token of fromA) assert.ok(await intakeOf(other).read(token), `B reads A's ${token}`);
  for (const token of fromB) assert.ok(await intakeOf(store.storage).read(token), `A reads B's ${token}`);
  assert.is(segments(store.dir).length, 2, 'one segment per writing worker');
  assert.is(await intakeOf(store.storage).count({ limit: 100 }), 20);
});

test('when the worker fails, then the profiles it held and the later ones are built and written on the main thread', async () => {
  store = await openTempStore();
  const { handoff, serve, warnings } = serving(
    store.storage,
    new URL('./crashing-profiler-worker.js', import.meta.url),
  );
  handoffs.push(handoff);
  const first = await Promise.all(Array.from({ length: 5 }, (_, i) => serve(`a${i}`)));
  await intakeOf(store.storage).flush();
  for (const token of first) assert.ok(await intakeOf(store.storage).read(token), token);
  // A second route table makes this worker exit: the batches sent after it are built here.
  handoff.addRoutes(routes);
  const second = await Promise.all(Array.from({ length: 5 }, (_, i) => serve(`b${i}`)));
  await intakeOf(store.storage).flush();
  for (const token of second) assert.ok(await intakeOf(store.storage).read(token), token);
  const third = await Promise.all(Array.from({ length: 5 }, (_, i) => serve(`c${i}`)));
  await intakeOf(store.storage).flush();
  for (const token of third) assert.ok(await intakeOf(store.storage).read(token), token);
  assert.is(warnings.length, 1, warnings.join('\n'));
  assert.ok(
    /^The profiler worker failed \(it exited with code 3\): profiles are built on the main thread from now on\.$/.test(
      warnings[0],
    ),
    warnings[0],
  );
  await intakeOf(store.storage).flush();
  assert.is(intakeOf(store.storage).stats().dropped, 0);
  assert.is(segments(store.dir).length, 2, `the worker's segment, then the main thread's: ${segments(store.dir)}`);
});

test('when the worker cannot open the store, then it says so once and the profiles are written from the main thread', async () => {
  store = await openTempStore();
  const storage = store.storage;
  const spec = storage.writerSpec()!;
  const { handoff, serve, warnings } = serving(storage, undefined, () => {
    storage.writerSpec = () => ({ ...spec, dir: join(store!.dir, 'missing', '\0bad') });
  });
  handoffs.push(handoff);
  const tokens = await Promise.all(Array.from({ length: 5 }, (_, i) => serve(`a${i}`)));
  await intakeOf(storage).flush();
  for (const token of tokens) assert.ok(await intakeOf(storage).read(token), token);
  assert.is(warnings.length, 1, warnings.join('\n'));
  assert.match(
    warnings[0],
    /^The profiler worker could not open the profile store \(.+\): profiles are written from the main thread\.$/,
  );
});

test('when the server shuts down, then closing the hand-off leaves every profile the worker held on disk', async () => {
  store = await openTempStore();
  const { handoff, serve } = serving(store.storage);
  const tokens = await Promise.all(Array.from({ length: 200 }, (_, i) => serve(`n${i}`)));
  await handoff.close();
  await store.storage.close();
  const reopened = await openFileStorage({ dir: store.dir });
  others.push(reopened);
  for (const token of tokens) assert.ok(await reopened.read(token), token);
});

test.run();
