import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

// Required: "SIGINT and SIGTERM: stop accepting, finish requests in flight and pending profile writes, exit 0."
// The app may keep a timer of its own, or a controller may never answer: the process still exits, 0.

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
setInterval(() => {}, 1000);
export const app = createApp()
  .get('fast', '/fast', () => ({ fast: true }))
  .get('never', '/never', () => new Promise(() => {}));
`;

const test = suite('app serve: a signal with an app that keeps the event loop busy (real bin)');

async function signalled(path: string, withinMs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-signal-busy-app-'));
  writeFileSync(join(dir, 'app.config.ts'), APP);
  let serve: ServeProcess | null = null;
  try {
    serve = await startServe(['--store', join(dir, 'store')], { cwd: dir });
    const exited = new Promise<[number | null, number]>((resolve) =>
      serve!.child.once('exit', (code) => resolve([code, Date.now()])),
    );
    const answer = fetchText(`${serve.base}${path}`).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const signalledAt = Date.now();
    serve.child.kill('SIGTERM');
    const [code, at] = await exited;
    await answer;
    assert.is(code, 0, serve.output());
    assert.ok(at - signalledAt < withinMs, `exited ${at - signalledAt} ms after SIGTERM\n${serve.output()}`);
  } finally {
    if (serve && serve.child.exitCode === null) serve.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

test('when the app keeps an interval timer and SIGTERM arrives, then the process exits 0 at once', async () => {
  await signalled('/fast', 2000);
});

test('when a controller never answers and SIGTERM arrives, then its connection is closed after the grace period and the process exits 0', async () => {
  await signalled('/never', 5000 + 2500);
});

test.run();
