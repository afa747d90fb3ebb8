import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

const test = suite('app profiles tail: each new profile as it is stored, from another process, until Ctrl-C');
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

interface Tail {
  stdout: () => string;
  stderr: () => string;
  interrupt(): Promise<number | null>;
}

async function startTail(args: string[]): Promise<Tail> {
  const child = spawn(process.execPath, [BIN, 'profiles', 'tail', '--store', t.storeDir, ...args], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  exited.finally(() => clearTimeout(killer));
  assert.ok(await waitFor(() => stderr.includes('Waiting for new profiles'), 15_000), `tail did not start: ${stderr}`);
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    async interrupt() {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** Waits on the store itself: polling the JSON view would store 404 profiles of its own. */
async function stored(path: string): Promise<string> {
  return (await fetchProfiled(t, path)).token;
}

test('when requests are profiled while tail --status 4xx runs, then it prints the 404 line, not the 200, and Ctrl-C ends it with 0', async () => {
  const old = await stored('/missing-before');
  // On disk before tail begins: tail follows arrival in the store, and one still queued arrives later.
  await t.server.storage!.flush();
  const tail = await startTail(['--status', '4xx']);
  const ok = await stored('/');
  const missing = await stored('/missing-after');
  assert.ok(await waitFor(() => tail.stdout().includes(missing), 10_000), `the 404 appears: ${tail.stdout()}`);
  // time, status, method, duration, token, route (none: "-"), path: aligned columns
  assert.match(
    tail.stdout(),
    new RegExp(`^\\d\\d:\\d\\d:\\d\\d {2}404 {2}GET {6} +[\\d.]+ ms {2}${missing} {2}- {17}/missing-after\\n$`),
  );
  assert.not.ok(tail.stdout().includes(ok), 'the 200 is filtered out');
  assert.not.ok(tail.stdout().includes(old), 'a profile stored before tail began is not printed');
  assert.is(await tail.interrupt(), 0);
});

test('when tail --json --url runs, then each new profile is one JSON line with the list fields', async () => {
  const tail = await startTail(['--json', '--url', '/wanted']);
  await stored('/other');
  const first = await stored('/wanted/1');
  const second = await stored('/wanted/2');
  assert.ok(await waitFor(() => tail.stdout().includes(second), 10_000), tail.stdout());
  const lines = tail
    .stdout()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(
    lines.map((row) => row.token),
    [first, second],
    'in the order they were stored, each once',
  );
  assert.equal(Object.keys(lines[0]).sort(), ['duration', 'ip', 'method', 'route', 'status', 'time', 'token', 'url']);
  assert.match(lines[0].time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'times as ISO 8601, as every --json');
  assert.is(await tail.interrupt(), 0);
});

test('when the reader of tail goes away (| head -1), then tail ends with 0 at its next line instead of running on', async () => {
  const child = spawn(process.execPath, [BIN, 'profiles', 'tail', '--store', t.storeDir], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    assert.ok(
      await waitFor(() => stderr.includes('Waiting for new profiles'), 15_000),
      `tail did not start: ${stderr}`,
    );
    const first = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    await stored('/read-by-head');
    await first;
    child.stdout.destroy();
    await stored('/after-head-left');
    const code = await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000)),
    ]);
    assert.is(code, 0, stderr);
  } finally {
    clearTimeout(killer);
    child.kill('SIGKILL');
  }
});

test('when tail is given a bad status, then a one-line usage error, exit 2', async () => {
  const child = spawn(process.execPath, [BIN, 'profiles', 'tail', '--status', 'oops', '--store', t.storeDir], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.is(code, 2);
  assert.match(stderr, /Invalid status "oops": expected e\.g\. 404 or 4xx\./);
});

test.run();
