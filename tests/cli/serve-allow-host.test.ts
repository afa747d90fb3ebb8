import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess, startServe } from '../helpers/cli.js';
import { requestHead, sendRaw } from '../hardening/raw-http.js';

const test = suite(
  'app serve --allow-host: repeatable, validated, and the only way past loopback and --host in debug mode (real bin)',
);
let dir: string;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-allow-host-'));
});
test.after(() => {
  rmSync(dir, { recursive: true, force: true });
});

const statusFor = async (base: string, host: string) =>
  (await sendRaw(base, requestHead('GET /_profiler/search HTTP/1.1', [`Host: ${host}`]))).status;

// The first through the real bin; the others in this process: refused before anything starts.
for (const [i, bad] of ['my app.test', 'myapp.test:8000', 'a@b', '', '[::1', 'http://myapp.test'].entries()) {
  test(`when --allow-host ${JSON.stringify(bad)} is given, then a one-line usage error and exit 2`, async () => {
    const r = await (i === 0 ? runApp : runAppInProcess)(
      [
        'serve',
        '--port',
        '0',
        '--allow-host',
        'ok.test',
        '--allow-host',
        bad,
        '--store',
        join(dir, 'store'),
        '--no-watch',
      ],
      { cwd: dir },
    );
    assert.is(r.code, 2, r.stderr);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(r.stderr.includes(`Invalid --allow-host "${bad}"`), r.stderr);
  });
}

test('when --allow-host is given twice, then both names are served on any port and another name is a 421', async () => {
  const serve = await startServe(
    [
      '--allow-host',
      'MyApp.test',
      '--allow-host',
      '::1',
      '--allow-host',
      'dev.local',
      '--store',
      join(dir, 'two'),
      '--no-watch',
    ],
    { cwd: dir },
  );
  try {
    assert.is(await statusFor(serve.base, 'myapp.test:1234'), 200);
    assert.is(await statusFor(serve.base, 'DEV.LOCAL'), 200);
    assert.is(await statusFor(serve.base, 'evil.example'), 421);
  } finally {
    assert.is(await serve.stop(), 0);
  }
});

test('when bound to another loopback address, then that address is served as a Host, and others are not', async () => {
  const serve = await startServe(['--host', '127.0.0.2', '--store', join(dir, 'bound'), '--no-watch'], { cwd: dir });
  try {
    assert.is(await statusFor(serve.base, new URL(serve.base).host), 200);
    assert.is(await statusFor(serve.base, '127.0.0.3'), 421);
  } finally {
    assert.is(await serve.stop(), 0);
  }
});

test('when exposed with --expose-profiler, then the allowed names apply and a rebinding name is a 421', async () => {
  const serve = await startServe(
    [
      '--host',
      '0.0.0.0',
      '--expose-profiler',
      '--allow-host',
      'lan.test',
      '--store',
      join(dir, 'exposed'),
      '--no-watch',
    ],
    { cwd: dir },
  );
  try {
    const base = `http://127.0.0.1:${new URL(serve.base).port}`;
    assert.is(await statusFor(base, 'lan.test:8000'), 200);
    assert.is(await statusFor(base, 'evil.example'), 421);
  } finally {
    assert.is(await serve.stop(), 0);
  }
});

test('when help is asked for, then --allow-host is described with an example', async () => {
  const r = await runAppInProcess(['serve', '--help']);
  assert.is(r.code, 0);
  assert.match(r.stdout, /--allow-host <name>/);
  assert.match(r.stdout, /\$ app serve --allow-host /);
});

test.run();
