import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, startServe } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

// tests/cli/serve-options.test.ts already checks that 0.0.0.0 is refused with exit 2; here: other
// spellings of "every interface" or of a remote address, the warning with --expose-profiler, and
// that loopback and --no-debug need no flag.
const test = suite(
  'a non-loopback host with the profiler on: refused without --expose-profiler, warned with it (real bin)',
);
let dir: string;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-exposure-'));
});
test.after(() => {
  rmSync(dir, { recursive: true, force: true });
});

for (const host of ['::', '0', '192.0.2.10', 'example.test']) {
  test(`when --host ${host} is given with the profiler on, then exit 2 before listening, with one line naming the host and the way out`, async () => {
    const r = await runApp(['serve', '--host', host, '--port', '0', '--store', join(dir, 'store'), '--no-watch'], {
      cwd: dir,
    });
    assert.is(r.code, 2, r.stderr);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(r.stderr.includes(`Refusing to listen on "${host}" with the profiler on`), r.stderr);
    assert.match(r.stderr, /--expose-profiler/);
    assert.match(r.stderr, /--no-debug/);
    assert.is(r.stdout, '');
  });
}

test("when --host 0.0.0.0 --expose-profiler, then it serves the profiler and warns on stderr that every request's data is exposed", async () => {
  const serve = await startServe(
    ['--host', '0.0.0.0', '--expose-profiler', '--store', join(dir, 'exposed'), '--no-watch'],
    { cwd: dir },
  );
  try {
    assert.match(
      serve.output(),
      /warning: the profiler is exposed on 0\.0\.0\.0: it shows every request's headers, bodies and logs/,
    );
    const port = new URL(serve.base).port;
    const r = await fetchText(`http://127.0.0.1:${port}/hello/world`);
    assert.match(r.headers['x-debug-token'] ?? '', /^[0-9a-f]{6}$/);
  } finally {
    assert.is(await serve.stop(), 0);
  }
});

test('when --host 0.0.0.0 --no-debug, then it serves without a flag or a warning, and without profiler', async () => {
  const serve = await startServe(['--host', '0.0.0.0', '--no-debug', '--store', join(dir, 'nodebug'), '--no-watch'], {
    cwd: dir,
  });
  try {
    assert.not.match(serve.output(), /warning/i);
    const port = new URL(serve.base).port;
    const r = await fetchText(`http://127.0.0.1:${port}/_profiler/search`);
    assert.is(r.status, 404);
    assert.is(r.headers['x-debug-token'], undefined);
  } finally {
    assert.is(await serve.stop(), 0);
  }
});

test('when --host is another loopback address (127.0.0.2), then it serves the profiler without a warning', async () => {
  const serve = await startServe(['--host', '127.0.0.2', '--store', join(dir, 'loopback'), '--no-watch'], { cwd: dir });
  try {
    assert.not.match(serve.output(), /warning/i);
    assert.match((await fetchText(`${serve.base}/hello/world`)).headers['x-debug-token'] ?? '', /^[0-9a-f]{6}$/);
  } finally {
    assert.is(await serve.stop(), 0);
  }
});

test.run();
