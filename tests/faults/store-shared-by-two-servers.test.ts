import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';

const test = suite('two servers (real bins) sharing one profile store');
let dir: string;
let store: string;
let a: ServeProcess;
let b: ServeProcess;
const tokens = new Map<string, string>();

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-shared-store-'));
  store = join(dir, 'store');
  [a, b] = await Promise.all([0, 1].map(() => startServe(['--store', store, '--no-watch'], { cwd: dir })));
});
test.after(async () => {
  await Promise.all([a, b].map((serve) => serve?.stop()));
  rmSync(dir, { recursive: true, force: true });
});

test('when both serve at once, then each loads the profiles the other wrote, and lists them', async () => {
  const served = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const [serve, name] = i % 2 ? [b, `b${i}`] : [a, `a${i}`];
      const r = await fetchText(`${serve.base}/hello/${name}`);
      assert.is(r.status, 200);
      tokens.set(r.headers['x-debug-token'], `${serve.base}/hello/${name}`);
      return { token: r.headers['x-debug-token'], other: serve === a ? b : a };
    }),
  );
  for (const { token, other } of served) assert.is((await fetchProfileJson(other.base, token)).url, tokens.get(token));
  const list = await fetchText(`${a.base}/_profiler/search?limit=100&url=/hello/b`);
  for (const { token } of served.filter((s) => s.other === a))
    assert.ok(list.body.includes(token), `server A lists ${token} of server B`);
});

test('when both stop, then the store opens without a warning and holds every profile of both', async () => {
  assert.is(await a.stop(), 0, a.output());
  assert.is(await b.stop(), 0, b.output());
  const warnings: string[] = [];
  const storage = await openFileStorage({ dir: store, onWarning: (warning) => warnings.push(warning) });
  try {
    assert.equal(warnings, []);
    for (const [token, url] of tokens) assert.is((await storage.read(token))?.url, url);
  } finally {
    await storage.close();
  }
});

test.run();
