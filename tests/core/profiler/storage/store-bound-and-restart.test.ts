import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Pool } from 'undici';
import { runApp, startServe, type ServeProcess } from '../../../helpers/cli.js';
import { FULL_CORPUS } from '../../../helpers/corpus.js';
import { fetchText } from '../../../helpers/serve.js';

// npm test serves five times the bound; test:stress, forty times.
const MAX_PROFILES = 500;
const REQUESTS = FULL_CORPUS ? 20_000 : 2_500;

function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    return sum + (stat.isDirectory() ? folderBytes(path) : stat.size);
  }, 0);
}

/** The profile of `token` from the server's JSON endpoint; a loaded box may take a few seconds to write it. */
async function profileOf(base: string, token: string): Promise<{ token: string; url: string }> {
  const end = Date.now() + 10_000;
  for (;;) {
    const r = await fetchText(`${base}/_profiler/${token}.json`);
    if (r.status === 200) return JSON.parse(r.body);
    if (Date.now() > end) throw new Error(`profile ${token} never became readable (${r.status})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const test = suite('the profile store over real HTTP (real bin, --max-profiles 500)');

test(`when ${REQUESTS} requests are served, then the store keeps at most ${MAX_PROFILES} profiles, and they survive a restart`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-bound-'));
  const store = join(dir, 'store');
  const servers: ServeProcess[] = [];
  try {
    const first = await startServe(['--store', store, '--no-watch', '--max-profiles', String(MAX_PROFILES)], {
      cwd: dir,
    });
    servers.push(first);
    const pool = new Pool(first.base, { connections: 16, pipelining: 1 });
    const tokens: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const i = next++;
        const r = await pool.request({ method: 'GET', path: i % 5 === 0 ? '/robots.txt' : `/hello/n${i}` });
        await r.body.dump();
        tokens.push(String(r.headers['x-debug-token']));
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: 16 }, worker));
    const elapsed = Date.now() - started;
    await pool.close();
    assert.is(tokens.length, REQUESTS);
    assert.ok(
      tokens.every((t) => /^[0-9a-f]{6}$/.test(t)),
      'every answer carries a token',
    );
    // SIGTERM flushes the profiles still queued. (On a CPU-starved box the write queue can fill and
    // drop a few, with a warning: so the newest stored profile is read back, not the last answer.)
    assert.is(await first.stop(), 0, first.output());

    const listed = JSON.parse(
      (await runApp(['profiles', 'list', '--json', '--limit', '100000', '--store', store])).stdout,
    ) as { token: string; url: string }[];
    assert.ok(listed.length <= MAX_PROFILES, `${listed.length} profiles kept, bound ${MAX_PROFILES}`);
    assert.ok(listed.length >= MAX_PROFILES / 2, `${listed.length} profiles kept: retention dropped too much`);
    const bytes = folderBytes(store);
    assert.ok(bytes < 20 * 1024 * 1024, `store folder holds ${bytes} bytes after ${REQUESTS} requests (${elapsed} ms)`);
    const newest = listed[0].token;
    assert.ok(tokens.slice(-REQUESTS / 10).includes(newest), 'the newest stored profile is one of the last requests');

    const second = await startServe(['--store', store, '--no-watch', '--max-profiles', String(MAX_PROFILES)], {
      cwd: dir,
    });
    servers.push(second);
    // Listed before any request reaches the new server: its own profiles could push the oldest segment out.
    const after = JSON.parse(
      (await runApp(['profiles', 'list', '--json', '--limit', '100000', '--store', store])).stdout,
    ) as { token: string }[];
    assert.equal(
      after.map((row) => row.token),
      listed.map((row) => row.token),
      'the restarted server keeps every profile',
    );
    const profile = await profileOf(second.base, newest);
    assert.is(profile.token, newest);
    assert.ok(profile.url.startsWith(`${first.base}/`), profile.url);
  } finally {
    // stop() of a server already stopped returns at once; a failure above must not leave one running.
    for (const server of servers) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
