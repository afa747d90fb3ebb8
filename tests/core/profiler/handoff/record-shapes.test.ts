import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../../core/app/app.js';
import { HTTP_CLIENT_COLLECTOR, OutgoingCall } from '../../../../core/debug/http-client-capture.js';
import { DATABASE_COLLECTOR, QueryRecord } from '../../../../core/debug/database-query.js';
import { Request } from '../../../../core/http/request.js';
import { combinedRoutes } from '../../../../core/kernel/build-kernel.js';
import { RecordingTrace, traceNames } from '../../../../core/kernel/request-trace.js';
import { buildRecordedProfiles, storedEntries } from '../../../../core/profiler/handoff/build-batch.js';
import { ByteWriter } from '../../../../core/profiler/handoff/byte-writer.js';
import { RecordShapes } from '../../../../core/profiler/handoff/record-shapes.js';
import { writeRequestRecord } from '../../../../core/profiler/handoff/request-record.js';
import { RouteTables, routeTableData } from '../../../../core/profiler/handoff/route-tables.js';
import {
  BLOCK_PROFILES,
  BLOCK_SLOTS,
  decodeBlock,
  encodeBlock,
} from '../../../../core/profiler/storage/record-codec.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTempStore } from '../storage/temp-store.js';
import { createAppKernel } from '../../../../server/kernel-factory.js';
import { serveConfig } from '../../../../server/serve-config.js';
import { profilerRoutes, WebProfiler } from '../../../../web-profiler/web-profiler.js';

const test = suite(
  'the profiler worker stores a record made like one it stored as it is (its token, clock readings and memory aside) as it stored that one, without reading it',
);

let memory = 1_000_000;
const app = createApp({ name: 'shapes' })
  .get('static', '/static', ({ trace }) => {
    // as the memory a request leaves: numbers that change from one request to the next
    trace.addEntry('memory', { rss: (memory += 4096), heapUsed: memory / 3 });
    return { ok: true };
  })
  .get('hello', '/hello/{name}', ({ params, log }) => {
    log.info('Said hello to {name}', { name: params.name });
    return { hello: params.name };
  })
  .get('called', '/called', ({ trace }) => {
    // an outgoing call as the HTTP client panel records it: the same call again, at other times
    const call = new OutgoingCall(
      'undici',
      performance.now(),
      performance.now(),
      'GET',
      'http://127.0.0.1:9',
      '/up',
      ['accept', '*/*'],
      null,
    );
    call.headersAt = performance.now();
    call.status = 200;
    call.responseHeaders = [Buffer.from('content-type'), Buffer.from('text/plain')];
    call.received(Buffer.from('ok'));
    call.endAt = performance.now();
    trace.addEntry(HTTP_CLIENT_COLLECTOR, call);
    return { called: true };
  })
  .get('queried', '/queried', ({ trace, request }) => {
    // the same statement three times, as the Database panel records it, at other times
    for (let i = 0; i < 3; i++) {
      const query = new QueryRecord(
        'pg',
        request.start,
        performance.now(),
        'SELECT name FROM users WHERE id = $1',
        [42],
        { host: '127.0.0.1', port: 5432, name: 'app', user: 'app' },
        process.cwd(),
        null,
        null,
      );
      query.ended(1, null);
      trace.addEntry(DATABASE_COLLECTOR, query);
    }
    return { queried: true };
  })
  .get('stamped', '/stamped', ({ log }) => {
    log.info('Stamped', { at: performance.now() });
    return 'stamped';
  })
  .get(
    'titled',
    '/titled',
    () =>
      `<!DOCTYPE html><html><head><title>Visit ${(visits = (visits % 9) + 1)}</title></head><body><p>Hi</p></body></html>`,
  )
  .get('shifting', '/shifting', () => {
    // another tag each time, of the same length
    const tag = 'pbiusq'[shifts++ % 6];
    return `<!DOCTYPE html><html><head><title>Shifting</title></head><body><${tag}>Hi</${tag}></body></html>`;
  });
let visits = 0;
let shifts = 0;

const store = { announce: () => true, writeBatch: () => {}, cancel: () => {}, has: () => false, nextToken: () => null };
const profiler = new WebProfiler(store as never, () => {});
const kernel = createAppKernel(app, {
  debug: true,
  root: process.cwd(),
  profiler,
  config: serveConfig({ appFile: null, root: process.cwd(), storeDir: null, options: { port: '8000' } }),
});
const tables = new RouteTables();
tables.set(0, routeTableData(combinedRoutes(app, [{ routes: profilerRoutes() }])));

/** A batch of hand-off records of these requests, as the kernel writes them under `app serve`. */
async function batchOf(requests: { target: string; headers?: Record<string, string> }[]): Promise<ArrayBuffer> {
  const writer = new ByteWriter();
  for (const { target, headers } of requests) {
    await null;
    const request = new Request({
      method: 'GET',
      target,
      headers: { host: '127.0.0.1:8000', 'user-agent': 'test', ...headers },
      clientIp: '127.0.0.1',
    });
    const response = await kernel.handle(request);
    const trace = kernel.traceOf(request);
    if (!(trace instanceof RecordingTrace)) throw new Error('not traced');
    const at = writer.reserve32();
    // every record carries every name: each batch is read with a names list of its own
    writeRequestRecord(writer, request, trace, response, 0, traceNames(), 0);
    writer.patch32(at, writer.length - at - 4);
  }
  return writer.take();
}

/** The same batch stored with record shapes and without: what is stored, and how many records were found alike. */
function bothWays(batch: ArrayBuffer) {
  const shapes = new RecordShapes();
  const fast = buildRecordedProfiles(batch, tables, [], shapes);
  const slow = buildRecordedProfiles(batch, tables, [], null);
  return { fast, slow, hits: shapes.hits };
}

const textOf = (jsons: ArrayBuffer) => Buffer.from(jsons).toString('latin1');

test('when the same requests come again, then most are found alike, and each is stored byte for byte as when read, with its own token and times', async () => {
  const requests = [];
  for (let i = 0; i < 12; i++) requests.push({ target: '/static' }, { target: '/hello/ann' }, { target: '/stamped' });
  const { fast, slow, hits } = bothWays(await batchOf(requests));
  assert.equal(fast.failures, []);
  assert.equal(slow.failures, []);
  assert.equal(fast.lengths, slow.lengths);
  assert.ok(textOf(fast.jsons) === textOf(slow.jsons), 'the stored entries are the same bytes');
  assert.equal(fast.summaries, slow.summaries);
  assert.is(new Set(fast.summaries.map((summary) => summary.token)).size, requests.length, 'each keeps its token');
  // all but the first of /static and of /hello/ann; /stamped logs a time of its own, which is compared as any value the app logs
  assert.is(hits, 22);
});

test('when a request made the same outgoing call or ran the same queries again, then it is found alike (their clock readings aside) and stored byte for byte as when read', async () => {
  const requests = Array.from({ length: 8 }, (_, i) => ({ target: i % 2 === 0 ? '/called' : '/queried' }));
  const { fast, slow, hits } = bothWays(await batchOf(requests));
  assert.equal(fast.failures, []);
  assert.ok(textOf(fast.jsons) === textOf(slow.jsons), 'the stored entries are the same bytes');
  assert.equal(fast.summaries, slow.summaries);
  assert.is(hits, 6);
});

test('when a block holds entries of the same request again, then they are kept as their changes from the one before, and read back byte for byte', async () => {
  const requests = [];
  for (let i = 0; i < 12; i++) requests.push({ target: '/static' }, { target: '/hello/ann' }, { target: '/stamped' });
  const stored = storedEntries(buildRecordedProfiles(await batchOf(requests), tables, [], new RecordShapes()));
  const entries = stored.map((entry) => entry.json);
  const likes = stored.map((entry) => entry.like);
  // /static and /hello/ann again: each entry like the one before of its path, but for its token and times
  assert.is(likes.filter(Boolean).length, 22);
  const whole = encodeBlock(entries);
  const patched = encodeBlock(entries, likes);
  assert.ok(patched[2] === 5 || patched[2] === 6, 'a block with entries kept as their changes');
  assert.ok(patched.length < whole.length, `${patched.length} bytes against ${whole.length}`);
  const decoded = decodeBlock(patched);
  if (!decoded.ok) throw new Error(decoded.problem);
  assert.is(decoded.entries.length, entries.length);
  for (const [i, entry] of decoded.entries.entries())
    assert.ok(entry.equals(entries[i]), `entry ${i} read back as written`);
  // a block cut after an entry whose base is in the block before keeps that entry whole
  const tail = decodeBlock(encodeBlock(entries.slice(5), likes.slice(5)));
  if (!tail.ok) throw new Error(tail.problem);
  for (const [i, entry] of tail.entries.entries())
    assert.ok(entry.equals(entries[i + 5]), `entry ${i + 5} of the cut block`);
});

test(`when a store is given many entries of the same request at once, then its blocks hold more than ${BLOCK_PROFILES} of them, ${BLOCK_SLOTS} at most, and each reads back as written`, async () => {
  const requests = Array.from({ length: 300 }, (_, i) => ({ target: i % 2 === 0 ? '/static' : '/hello/ann' }));
  const built = buildRecordedProfiles(await batchOf(requests), tables, [], new RecordShapes());
  const expected = buildRecordedProfiles(await batchOf(requests.slice(0, 2)), tables, [], null);
  assert.equal(built.failures, []);
  const store = await openTempStore();
  try {
    store.storage.writeBatch(storedEntries(built));
    await store.storage.flush();
    const slots = new Map<string, number>();
    for (const file of readdirSync(store.dir).filter((name) => name.endsWith('.idx')))
      for (const line of readFileSync(join(store.dir, file), 'utf8').split('\n').filter(Boolean)) {
        const row = JSON.parse(line) as unknown[];
        if (row[0] !== 'seal') slots.set(`${file}:${row[7]}`, (slots.get(`${file}:${row[7]}`) ?? 0) + 1);
      }
    const sizes = [...slots.values()];
    assert.is(
      sizes.reduce((a, b) => a + b, 0),
      requests.length,
    );
    assert.ok(Math.max(...sizes) > BLOCK_PROFILES && Math.max(...sizes) <= BLOCK_SLOTS, String(sizes));
    const reopened = await store.reopen();
    for (const [i, summary] of built.summaries.entries()) {
      const profile = await reopened.read(summary.token);
      assert.is(profile?.token, summary.token);
      assert.is(profile?.url, expected.summaries[i % 2].url);
      assert.is(profile?.time, summary.time);
    }
  } finally {
    await store.remove();
  }
});

test('when a request carries a secret, then it is never found alike: every one is redacted as it is read', async () => {
  const requests = [];
  for (let i = 0; i < 6; i++) {
    requests.push({ target: '/static', headers: { authorization: `Bearer sk_live_${'a'.repeat(20)}${i}` } });
    requests.push({ target: `/hello/ann?api_key=secret-${i}` });
  }
  const { fast, slow, hits } = bothWays(await batchOf(requests));
  assert.is(hits, 0);
  assert.ok(textOf(fast.jsons) === textOf(slow.jsons));
  assert.not.match(textOf(fast.jsons), /secret-\d|aaaaaaaaaaaaaaaaaaaa/);
});

test('when one byte of a request differs from the one before (a header, the path), then it is read, not found alike', async () => {
  const requests = [];
  for (let i = 0; i < 8; i++) requests.push({ target: '/hello/ann', headers: { 'x-trace': `t${i}` } });
  for (let i = 0; i < 8; i++) requests.push({ target: `/hello/an${i}` });
  const { fast, slow, hits } = bothWays(await batchOf(requests));
  assert.is(hits, 0);
  assert.ok(textOf(fast.jsons) === textOf(slow.jsons));
  assert.equal(fast.summaries, slow.summaries);
});

test('when the debug 404 page is answered again, then it is found alike: its own token and times aside, it is described the same (size, title, structure), and stored byte for byte as when read', async () => {
  const requests = [];
  for (let i = 0; i < 8; i++) requests.push({ target: '/nope', headers: { accept: 'text/html' } });
  const { fast, slow, hits } = bothWays(await batchOf(requests));
  // a page whose toolbar's time is written one character longer or shorter (0.99 ms, 1.0 ms) is not as long, so not alike
  assert.ok(hits >= 2, `found alike: ${hits}`);
  assert.equal(fast.failures, []);
  assert.ok(textOf(fast.jsons) === textOf(slow.jsons), 'the stored entries are the same bytes');
  assert.equal(fast.summaries, slow.summaries);
});

test('when a page is as long as the one before but titled otherwise, or made of other tags, then it is read each time, never found alike', async () => {
  const requests = [];
  for (let i = 0; i < 8; i++) requests.push({ target: '/titled', headers: { accept: 'text/html' } });
  for (let i = 0; i < 6; i++) requests.push({ target: '/shifting', headers: { accept: 'text/html' } });
  const { fast, slow, hits } = bothWays(await batchOf(requests));
  assert.is(hits, 0);
  assert.ok(textOf(fast.jsons) === textOf(slow.jsons), 'the stored entries are the same bytes');
  assert.equal(fast.summaries, slow.summaries);
  assert.ok(textOf(fast.jsons).includes('Visit 8'), 'each page keeps its own title');
});

test('when the route table the records were read against is replaced, then no record is found like one read against the old one', async () => {
  const shapes = new RecordShapes();
  const batch = await batchOf([{ target: '/static' }, { target: '/static' }, { target: '/static' }]);
  buildRecordedProfiles(batch, tables, [], shapes);
  const before = shapes.hits;
  assert.ok(before >= 1);
  const replaced = new RouteTables();
  replaced.set(0, routeTableData(combinedRoutes(app, [{ routes: profilerRoutes() }])));
  const names: string[] = [];
  buildRecordedProfiles(batch, replaced, names, shapes);
  // the first record of the batch is read again (another names list, then another table); the others are alike to it
  assert.is(shapes.hits - before, 2);
});

test.run();
