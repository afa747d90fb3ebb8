import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

// Required: "SIGINT and SIGTERM: stop accepting, finish requests in flight and pending profile writes, exit 0."
// serve-sigint.test.ts signals after a request is answered, replay-and-watch.test.ts under load (where a
// refused or cut request is simply not counted); here a request is still running in the controller when
// the signal arrives.

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('slow', '/slow', async () => { await new Promise((r) => setTimeout(r, 700)); return { done: true }; });
`;

/** true when a fresh TCP connection to `base` is refused */
function refused(base: string): Promise<boolean> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const test = suite('app serve: a signal while a request is in flight (real bin, an app file)');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`when ${signal} arrives while a request is in the controller, then new connections are refused, that request is answered and profiled, and the exit code is 0`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'appkernel-signal-in-flight-'));
    const store = join(dir, 'store');
    writeFileSync(join(dir, 'app.config.ts'), APP);
    let serve: ServeProcess | null = null;
    try {
      serve = await startServe(['--store', store, '--no-watch'], { cwd: dir });
      const exited = new Promise<number | null>((resolve) => serve!.child.once('exit', resolve));
      const slow = fetchText(`${serve.base}/slow`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      serve.child.kill(signal);
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.ok(await refused(serve.base), 'a new connection is still accepted after the signal');
      const answer = await slow;
      assert.is(answer.status, 200);
      assert.equal(JSON.parse(answer.body), { done: true });
      const token = answer.headers['x-debug-token'];
      assert.match(token ?? '', /^[0-9a-f]{6}$/);
      assert.is(await exited, 0, serve.output());
      const show = await runApp(['profiles', 'show', token, '--json', '--store', store]);
      assert.is(show.code, 0, `the in-flight request's profile is stored: ${show.stderr}`);
      assert.is(JSON.parse(show.stdout).url, `${serve.base}/slow`);
    } finally {
      if (serve && serve.child.exitCode === null) await serve.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("when SIGTERM arrives while a request is in flight, then the process exits soon after answering it, not when the client's idle keep-alive connection times out", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-signal-prompt-'));
  writeFileSync(join(dir, 'app.config.ts'), APP);
  let serve: ServeProcess | null = null;
  try {
    serve = await startServe(['--store', join(dir, 'store'), '--no-watch'], { cwd: dir });
    const exited = new Promise<number>((resolve) => serve!.child.once('exit', () => resolve(Date.now())));
    // fetchText keeps its connection alive, as a browser does.
    const slow = fetchText(`${serve.base}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    serve.child.kill('SIGTERM');
    await slow;
    const answered = Date.now();
    const lag = (await exited) - answered;
    assert.ok(lag < 1500, `exited ${lag} ms after the last answer (the server's keep-alive timeout is 5 s)`);
  } finally {
    if (serve && serve.child.exitCode === null) await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
