import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN, startServe } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

const ANSI = /\x1b\[[0-9;]*m/;

/** Runs `app serve` on a pseudo-terminal (util-linux `script`; stdout optionally sent to /dev/null), makes two requests, stops it, returns what it printed. */
async function serveOnTty(
  env: Record<string, string | undefined>,
  stdout: 'tty' | 'null' = 'tty',
): Promise<{ output: string; tokens: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-tty-'));
  const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} serve --port 0 --no-watch --store ${JSON.stringify(join(dir, 'store'))}${stdout === 'null' ? ' >/dev/null' : ''}`;
  const childEnv = { ...process.env, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  const script = spawn('script', ['-qfec', command, '/dev/null'], { cwd: dir, env: childEnv });
  let output = '';
  script.stdout.on('data', (d) => (output += d));
  try {
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address:\n${output}`)), 15_000);
      script.stdout.on('data', () => {
        const m = / at (http:\/\/[^\s/]+)\//.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const tokens = [];
    for (const path of ['/hello/world', '/robots.txt'])
      tokens.push((await fetchText(`${base}${path}`)).headers['x-debug-token']);
    const end = Date.now() + 5000;
    while (!output.includes(tokens[1]) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
    return { output, tokens };
  } finally {
    // Stop the server itself (script's child): script then exits at once.
    const exited = new Promise((resolve) => script.once('close', resolve));
    try {
      for (const pid of execFileSync('pgrep', ['-P', String(script.pid)])
        .toString()
        .trim()
        .split('\n'))
        process.kill(Number(pid), 'SIGTERM');
    } catch {
      script.kill('SIGKILL');
    }
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

const test = suite('app serve logs each request: method, path, status, duration, token');

test('when its output is piped, then where it listens, the profiler URL, and one plain line per request with the token the response carried', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-log-'));
  const serve = await startServe(['--store', join(dir, 'store'), '--no-watch'], { cwd: dir, env: { NO_COLOR: '' } });
  try {
    const ok = (await fetchText(`${serve.base}/hello/world?x=1`)).headers['x-debug-token'];
    const missing = (await fetchText(`${serve.base}/robots.txt`, { method: 'POST' })).headers['x-debug-token'];
    const end = Date.now() + 5000;
    while (!serve.output().includes(missing) && Date.now() < end)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const output = serve.output();
    assert.ok(output.includes(`appkernel serving the embedded demo app at ${serve.base}/`), 'where it listens');
    assert.ok(output.includes(`Profiler: ${serve.base}/_profiler`), "the profiler's URL");
    assert.match(output, new RegExp(`^GET /hello/world\\?x=1 200 \\d+\\.\\d ms ${ok}$`, 'm'));
    assert.match(output, new RegExp(`^POST /robots\\.txt 404 \\d+\\.\\d ms ${missing}$`, 'm'));
    assert.not.match(output, ANSI);
  } finally {
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('when stderr is a terminal, then the status is coloured, even with stdout elsewhere', async () => {
  const { output, tokens } = await serveOnTty({ NO_COLOR: undefined, TERM: 'xterm' }, 'null');
  assert.match(output, new RegExp(`GET /hello/world \\x1b\\[32m200\\x1b\\[0m \\d+\\.\\d ms ${tokens[0]}`));
  assert.match(output, new RegExp(`GET /robots\\.txt \\x1b\\[33m404\\x1b\\[0m \\d+\\.\\d ms ${tokens[1]}`));
});

test('when NO_COLOR is set on a terminal, then the lines are plain', async () => {
  const { output, tokens } = await serveOnTty({ NO_COLOR: '1', TERM: 'xterm' });
  assert.match(output, new RegExp(`GET /hello/world 200 \\d+\\.\\d ms ${tokens[0]}`));
  assert.not.match(output, ANSI);
});

test.run();
