import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';
import { fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

const MIB = 1024 * 1024;

/** A body sent chunked, without Content-Length, so only counting the bytes can catch it. */
async function postChunked(url: string, bytes: number): Promise<{ status: number; body: string }> {
  const body = Readable.from(
    (function* () {
      for (let sent = 0; sent < bytes; sent += 64 * 1024) yield Buffer.alloc(Math.min(64 * 1024, bytes - sent), 97);
    })(),
  );
  const r = await request(url, { method: 'POST', body });
  return { status: r.statusCode, body: await r.body.text() };
}

const demo = suite('request bodies over the default limit (demo app, 1 MiB)');
let d: TestServer;
demo.before(async () => {
  d = await serveForTest();
});
demo.after(async () => {
  await d.stop();
});

demo('when a body of exactly 1 MiB is posted, then the controller gets it', async () => {
  const r = await fetchText(`${d.base}/contact`, { method: 'POST', body: 'a'.repeat(MIB) });
  assert.is(r.status, 200);
  assert.equal(JSON.parse(r.body), { received: MIB });
});

demo('when a declared Content-Length is one byte over 1 MiB, then 413 with a message naming the limit', async () => {
  const r = await fetchText(`${d.base}/contact`, { method: 'POST', body: 'a'.repeat(MIB + 1) });
  assert.is(r.status, 413);
  assert.match(r.body, /exceeds the limit of 1048576 bytes/);
});

demo('when a chunked body grows over 1 MiB, then 413', async () => {
  const r = await postChunked(`${d.base}/contact`, 2 * MIB);
  assert.is(r.status, 413);
});

demo.run();

const custom = suite("an app's own bodyLimit option");
let dir: string;
let c: TestServer;
custom.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-body-limit-'));
  const appFile = join(dir, 'app.config.ts');
  writeFileSync(
    appFile,
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ bodyLimit: 100 })
  .post('echo', '/echo', ({ request }) => ({ size: request.body.length }));
`,
  );
  c = await serveForTest({ appFile, root: dir });
});
custom.after(async () => {
  await c.stop();
  rmSync(dir, { recursive: true, force: true });
});

custom('when bodyLimit is 100, then 100 bytes pass and 101 get 413', async () => {
  assert.equal(JSON.parse((await fetchText(`${c.base}/echo`, { method: 'POST', body: 'a'.repeat(100) })).body), {
    size: 100,
  });
  const over = await fetchText(`${c.base}/echo`, { method: 'POST', body: 'a'.repeat(101) });
  assert.is(over.status, 413);
  assert.match(over.body, /limit of 100 bytes/);
});

custom.run();
