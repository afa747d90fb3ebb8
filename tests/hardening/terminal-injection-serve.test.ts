import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { terminalSafe } from '../../render/text/terminal-safe.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import {
  assertNoRawControls,
  headerAsReceived,
  headerBytes,
  hostileAppDir,
  sendHostile,
  TERMINAL_PAYLOADS,
} from './terminal-harness.js';

const test = suite(
  'app serve at log level DEBUG (everything it may print) prints no control sequence a request or the app sends (real bin, hostile app)',
);
let app: ReturnType<typeof hostileAppDir>;
let serve: ServeProcess;

test.before(async () => {
  app = hostileAppDir();
  // DEBUG: the framework's ERROR line of an expected 404 prints only at that level
  serve = await startServe(['--no-watch', '--log-level', 'DEBUG', '--store', join(app.dir, 'store')], { cwd: app.dir });
});
test.after(async () => {
  await serve.stop();
  app.remove();
});

/** Waits until what the server printed since `from` holds `text` (a request's token, a message), and returns that part. */
async function printed(text: string, from: number): Promise<string> {
  const end = Date.now() + 10_000;
  while (!serve.output().slice(from).includes(text)) {
    if (Date.now() > end) assert.unreachable(`never printed ${JSON.stringify(text)}:\n${serve.output().slice(from)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return serve.output().slice(from);
}

const q = (payload: string) => `q=${encodeURIComponent(payload)}`;

for (const { name, payload } of TERMINAL_PAYLOADS) {
  test(`when the app logs a decoded query value holding ${name} at WARNING and ERROR, then both lines show it escaped`, async () => {
    const from = serve.output().length;
    const answer = await sendHostile(serve.base, 'GET', `/say?${q(payload)}`, {});
    assert.is(answer.status, 200);
    const output = await printed(answer.headers['x-debug-token'], from);
    assertNoRawControls(output, name);
    assert.ok(output.includes(`WARNING  [app] ${terminalSafe(payload)}\n`), output);
    assert.ok(output.includes(`ERROR    [app] Searching ${terminalSafe(payload)}\n`), output);
  });

  test(`when a controller throws an exception whose message holds ${name}, then its CRITICAL line shows it escaped`, async () => {
    const from = serve.output().length;
    const answer = await sendHostile(serve.base, 'GET', `/fail?${q(payload)}`, {});
    assert.is(answer.status, 500);
    const output = await printed(answer.headers['x-debug-token'], from);
    assertNoRawControls(output, name);
    assert.ok(output.includes(`[request] Uncaught exception Error: "${terminalSafe(payload)}"`), output);
  });

  test(`when an exception outside any request has a message holding ${name}, then the survival report shows it escaped`, async () => {
    const from = serve.output().length;
    const marker = `later-${TERMINAL_PAYLOADS.findIndex((p) => p.payload === payload)}`;
    assert.is((await sendHostile(serve.base, 'GET', `/later?${q(`${marker}${payload}`)}`, {})).status, 200);
    const output = await printed(`Error: ${marker}`, from);
    assertNoRawControls(output, name);
    assert.ok(output.includes(`keeps running: Error: ${marker}${terminalSafe(payload)}\n    at `), output);
  });

  // A header value can carry only obs-text of these (C1 bytes, UTF-8 of U+202E): C0 controls end or break the request.
  if (!/[\x80-\xff]/.test(headerAsReceived(payload))) continue;

  test(`when a 404's Referer holds ${name} as header bytes, then the framework's own ERROR line shows it escaped`, async () => {
    const from = serve.output().length;
    const answer = await sendHostile(serve.base, 'GET', '/nowhere', { referer: headerBytes(payload) });
    assert.is(answer.status, 404);
    const output = await printed(answer.headers['x-debug-token'], from);
    assertNoRawControls(output, name);
    assert.ok(output.includes(`(from "${terminalSafe(headerAsReceived(payload))}")`), output);
  });

  test(`when a request's Host holds ${name} as header bytes, then nothing raw is printed for it`, async () => {
    const from = serve.output().length;
    const host = Buffer.concat([Buffer.from(new URL(serve.base).host), headerBytes(payload)]);
    const answer = await sendHostile(serve.base, 'GET', '/nowhere', { host });
    assert.ok([400, 404, 421].includes(answer.status), String(answer.status));
    const token = answer.headers['x-debug-token'];
    assertNoRawControls(token ? await printed(token, from) : serve.output().slice(from), name);
  });
}

test.run();
