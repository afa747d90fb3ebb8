import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess, startServe } from '../helpers/cli.js';

const test = suite('app serve --max-connections');
let dir: string;
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-max-connections-'));
});
test.after(() => {
  rmSync(dir, { recursive: true, force: true });
});

// The first through the real bin; the others in this process: refused before anything starts.
for (const [i, bad] of ['0', 'many', '-5', '2.5'].entries()) {
  test(`when --max-connections ${bad}, then exit 2 with a one-line message naming the option`, async () => {
    const args = ['serve', '--port', '0', '--no-watch', '--store', join(dir, 'store'), '--max-connections', bad];
    const r = await (i === 0 ? runApp(args, { cwd: dir, timeoutMs: 15_000 }) : runAppInProcess(args, { cwd: dir }));
    assert.is(r.code, 2, r.stderr);
    assert.ok(
      r.stderr.includes(`Invalid max-connections "${bad}": expected an integer from 1 to 2147483647.`),
      r.stderr,
    );
    assert.not.ok(r.stderr.includes('    at '), 'no stack trace');
  });
}

test('when --max-connections 2, then the server starts and serves', async () => {
  const serve = await startServe(['--no-watch', '--store', join(dir, 'store'), '--max-connections', '2'], { cwd: dir });
  try {
    const response = await fetch(`${serve.base}/hello/capped`);
    assert.is(response.status, 200);
  } finally {
    await serve.stop();
  }
});

test('when app serve --help, then --max-connections is documented', async () => {
  const r = await runAppInProcess(['serve', '--help'], { cwd: dir });
  assert.match(r.stdout, /--max-connections <n>/);
});

test.run();
