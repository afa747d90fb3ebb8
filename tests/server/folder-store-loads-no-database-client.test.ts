import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServe } from '../helpers/cli.js';
import { answersWithin } from '../helpers/poll.js';

// The PostgreSQL client is loaded for a postgres:// store only: a server writing a store folder
// loads it in none of its threads, its profiler worker included. The module hook (preloaded into the
// real bin) logs what every thread resolves.

const HOOK = pathToFileURL(resolve(process.cwd(), 'dist/tests/helpers/log-loaded-modules.js')).href;

const test = suite('app serve with a store folder: no thread loads the PostgreSQL client (real bin)');
test('when a request is profiled and stored, then the worker that stored it loaded no pg', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-folder-store-modules-'));
  try {
    await serveOneProfile(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Serves one profiled request from a store in `dir` with the module log on, and checks what was loaded. */
async function serveOneProfile(dir: string): Promise<void> {
  const log = join(dir, 'loaded.log');
  const serve = await startServe(['--store', join(dir, 'store'), '--no-watch'], {
    cwd: dir,
    env: { NODE_OPTIONS: `--import=${HOOK}`, APPKERNEL_TEST_LOADED_LOG: log },
  });
  try {
    const response = await fetch(`${serve.base}/`);
    await response.arrayBuffer();
    const token = response.headers.get('x-debug-token');
    assert.ok(token, 'the request was profiled');
    assert.is.not(await answersWithin(`${serve.base}/_profiler/${token}`, 200, 30_000), null, 'its profile is stored');
  } finally {
    assert.is(await serve.stop(), 0, serve.output());
  }
  const urls = readFileSync(log, 'utf8').split('\n');
  // The log saw the worker start and its store writer: an empty log would pass for nothing.
  for (const worker of [
    '/dist/core/profiler/handoff/profiler-worker.js',
    '/dist/core/profiler/storage/store-writer.js',
  ])
    assert.ok(
      urls.some((url) => url.endsWith(worker)),
      `${worker} in:\n${urls.join('\n')}`,
    );
  assert.equal(
    urls.filter((url) => url.includes('/node_modules/pg/')),
    [],
  );
}

test.run();
