import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AppError } from '../../core/errors.js';
import { startDevServer, type DevServerOptions } from '../../server/dev-server.js';

// The package API is as safe as the CLI: startDevServer itself refuses a host other machines reach
// while the profiler is on (tests/hardening/exposure-non-loopback-host.test.ts checks the CLI's words).
const test = suite('startDevServer refuses a non-loopback host with the profiler on unless exposeProfiler');
let dir: string;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-exposure-api-'));
});
test.after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function options(host: string, extra: Partial<DevServerOptions> = {}): DevServerOptions {
  return {
    port: 0,
    host,
    appFile: null,
    root: dir,
    storeDir: join(dir, `store-${host}`),
    debug: true,
    watch: false,
    logLevel: 'EMERGENCY',
    print: () => {},
    ...extra,
  };
}

for (const host of ['0.0.0.0', '::', '192.0.2.10']) {
  test(`when the host is ${host} with debug on, then it rejects with APP_ERR_SERVE_EXPOSED before the store is opened`, async () => {
    const error = await startDevServer(options(host)).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof AppError, String(error));
    assert.is((error as AppError).code, 'APP_ERR_SERVE_EXPOSED');
    assert.ok(
      (error as AppError).message.includes(`Refusing to listen on "${host}" with the profiler on`),
      (error as AppError).message,
    );
    assert.not.ok(existsSync(join(dir, `store-${host}`)), 'no store folder was made');
  });
}

test('when exposeProfiler is given, then it serves and prints the warning through its own printer', async () => {
  const lines: string[] = [];
  const server = await startDevServer(options('0.0.0.0', { exposeProfiler: true, print: (line) => lines.push(line) }));
  try {
    assert.ok(
      lines.some((line) => line.startsWith('warning: the profiler is exposed on 0.0.0.0')),
      lines.join('\n'),
    );
  } finally {
    await server.close();
  }
});

test('when the host is 127.0.0.1, then it serves the profiler without a warning', async () => {
  const lines: string[] = [];
  const server = await startDevServer(options('127.0.0.1', { print: (line) => lines.push(line) }));
  try {
    assert.not.ok(
      lines.some((line) => line.includes('warning')),
      lines.join('\n'),
    );
    assert.ok(server.storage !== null);
  } finally {
    await server.close();
  }
});

test.run();
