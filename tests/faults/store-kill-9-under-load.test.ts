import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';

const CONNECTIONS = 8;
const LOAD_MS = 2_000;
/**
 * The store's promise: a profile is queued when its response has been sent and
 * appended (one write to the page cache, no fsync) a batch later, within
 * milliseconds. A process kill loses only the profiles still queued; a second is
 * a wide margin for "answered well before the kill".
 */
const SETTLED_MS = 1_000;
const PATHS = ['/', '/hello/world', '/robots.txt', '/boom'];

const test = suite('kill -9 of the real bin in the middle of a load');
let dir: string;
let serve: ServeProcess;
test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-kill9-'));
  serve = await startServe(
    ['--store', join(dir, 'store'), '--no-watch', '--max-profiles', '1000000', '--max-store-mb', '1024'],
    { cwd: dir },
  );
  // The promise is the running worker's: its start (its modules, the store's writer) can take more
  // than a second on a loaded machine, so one profile is stored before the load begins.
  const first = await fetch(`${serve.base}/`);
  await first.arrayBuffer();
  const token = first.headers.get('x-debug-token');
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const page = await fetch(`${serve.base}/_profiler/${token}`);
    await page.arrayBuffer();
    if (page.status === 200) break;
  }
});
test.after(async () => {
  if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test(`when killed, then the store opens consistent, and every profile answered more than ${SETTLED_MS} ms before the kill is there`, async () => {
  const answered: { token: string; at: number }[] = [];
  const pool = new Pool(serve.base, { connections: CONNECTIONS });
  let loading = true;
  const worker = async (w: number) => {
    for (let i = w; loading; i += CONNECTIONS) {
      try {
        const r = await pool.request({ method: 'GET', path: PATHS[i % PATHS.length] });
        await r.body.dump();
        answered.push({ token: String(r.headers['x-debug-token']), at: Date.now() });
      } catch {
        return;
      }
    }
  };
  const workers = Array.from({ length: CONNECTIONS }, (_, w) => worker(w));
  // Loaded for LOAD_MS at least, and until 100 requests were answered, however busy the machine is.
  await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
  for (const deadline = Date.now() + 60_000; answered.length <= 100 && Date.now() < deadline; )
    await new Promise((resolve) => setTimeout(resolve, 50));
  const killedAt = Date.now();
  const exited = new Promise((resolve) => serve.child.once('exit', resolve));
  serve.child.kill('SIGKILL');
  await exited;
  loading = false;
  await Promise.all(workers);
  await pool.destroy();
  assert.ok(answered.length > 100, `${answered.length} requests answered before the kill`);
  assert.not.match(serve.output(), /dropped/, 'no profile was dropped before the kill');

  const warnings: string[] = [];
  const open = () => openFileStorage({ dir: join(dir, 'store'), onWarning: (warning) => warnings.push(warning) });
  let storage = await open();
  try {
    assert.ok(
      warnings.every((w) => /half-written|recovered|cut short|rebuilt/.test(w)),
      warnings.join('\n'),
    );
    const settled = answered.filter((a) => a.at < killedAt - SETTLED_MS);
    const missing = settled.filter((a) => !storage.has(a.token));
    assert.equal(missing.slice(0, 5), [], `${missing.length} of ${settled.length} settled profiles are missing`);
    const listed = await storage.search({ limit: 1_000_000 });
    for (const row of listed)
      assert.is((await storage.read(row.token))?.token, row.token, 'every listed profile reads whole');
    const lost = answered.filter((a) => !storage.has(a.token));
    const oldest = Math.max(0, ...lost.map((a) => killedAt - a.at));
    process.stdout.write(
      `  ${answered.length} answered, ${listed.length} stored; ${lost.length} lost, answered at most ${oldest} ms before the kill\n`,
    );

    const warned = warnings.length;
    await storage.close();
    storage = await open();
    assert.is(
      warnings.length,
      warned,
      `the first open left the index consistent:\n${warnings.slice(warned).join('\n')}`,
    );
    assert.is((await storage.search({ limit: 1_000_000 })).length, listed.length);
  } finally {
    await storage.close();
  }
});

test.run();
