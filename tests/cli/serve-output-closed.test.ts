import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServe } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

const test = suite('app serve whose terminal output went away');

/** A server that spins on its failing writes answers nothing: the test must end anyway. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

test('when the reader of its stderr is gone (app serve 2>&1 | head), then it serves on and SIGTERM still stops it with exit 0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-output-closed-'));
  const serve = await startServe(['--store', join(dir, 'store'), '--no-watch'], { cwd: dir });
  try {
    serve.child.stderr!.destroy();
    serve.child.stdout!.destroy();
    // Each answered request prints its line, which now fails with EPIPE.
    for (let i = 0; i < 5; i++)
      assert.is((await within(10_000, 'a request', fetchText(`${serve.base}/robots.txt`))).status, 404);
    await new Promise((done) => setTimeout(done, 100));
    const after = await within(10_000, 'a request after the failed writes', fetchText(`${serve.base}/hello/after`));
    assert.is(after.status, 200);
    assert.match(after.body, /after/);
    assert.is(await within(10_000, 'SIGTERM', serve.stop()), 0);
  } finally {
    if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
