import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

const MIB = 1024 * 1024;
const CLIENT = fileURLToPath(new URL('./upload-client.js', import.meta.url));
const READ_413 = '413 Content Too Large: the request body exceeds the limit of 1048576 bytes.';

/** What each of `count` posts of `bytes` read, from a client in its own process. */
function uploads(base: string, bytes: number, count: number, how: 'node' | 'chunked' | 'undici'): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLIENT, `${base}/contact`, String(bytes), String(count), how],
      { timeout: 60_000, maxBuffer: MIB },
      (error, stdout) => {
        if (error) reject(error);
        else resolve(JSON.parse(stdout) as string[]);
      },
    );
  });
}

const test = suite('a Node client uploading a body over the limit (1 MiB) reads the 413 instead of a reset');
let t: TestServer;
test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

for (const how of ['node', 'chunked', 'undici'] as const) {
  test(`when ${how === 'chunked' ? 'node:http posts chunked' : `${how} posts`} 5 MiB 30 times, then every one reads the 413 (no EPIPE, no ECONNRESET)`, async () => {
    const results = await uploads(t.base, 5 * MIB, 30, how);
    assert.equal(results, Array(30).fill(READ_413));
  });
}

test("when node:http posts 100 MiB with Content-Length, then it reads the 413, and the server's memory stays flat (the rest is never buffered)", async () => {
  const before = process.memoryUsage().rss;
  assert.equal(await uploads(t.base, 100 * MIB, 1, 'node'), [READ_413]);
  const grown = process.memoryUsage().rss - before;
  assert.ok(grown < 64 * MIB, `resident memory grew by ${Math.round(grown / MIB)} MiB`);
  assert.is((await fetchText(`${t.base}/hello/after`)).status, 200, 'the server keeps serving');
});

test.run();
