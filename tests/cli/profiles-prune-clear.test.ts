import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest } from '../helpers/serve.js';

const test = suite('app profiles prune and clear (the real bin prunes and clears once)');
let dir: string;
let store: string;
const tokens: string[] = [];

async function listed(): Promise<string[]> {
  const r = await runAppInProcess([
    'profiles',
    'list',
    '--json',
    '--limit',
    '1000',
    '--include-profiler',
    '--store',
    store,
  ]);
  assert.is(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { token: string }[]).map((row) => row.token);
}

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-prune-'));
  store = join(dir, 'store');
  const serve = await serveForTest({ store: store, root: dir });
  try {
    for (let i = 1; i <= 5; i++) {
      const token = (await fetchText(`${serve.base}/hello/n${i}`)).headers['x-debug-token'];
      await fetchProfileJson(serve.base, token);
      tokens.push(token);
    }
  } finally {
    await serve.stop();
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('when prune --keep 2, then the two newest requests stay and the count removed is said on stderr', async () => {
  const before = await listed();
  const r = await runApp(['profiles', 'prune', '--keep', '2', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, '');
  assert.is(r.stderr.trim(), `Removed ${before.length - 2} profiles.`);
  assert.equal(await listed(), before.slice(0, 2));
  assert.ok(before.slice(0, 2).includes(tokens[4]), 'the newest request is kept');
});

test('when a later prune is weaker (--older-than 1h), then nothing is removed and the pruned profiles stay gone', async () => {
  const before = await listed();
  const r = await runAppInProcess(['profiles', 'prune', '--older-than', '1h', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr.trim(), 'Removed 0 profiles.');
  assert.equal(await listed(), before);
});

test('when prune is given nothing to prune by, then a usage error, exit 2', async () => {
  const r = await runAppInProcess(['profiles', 'prune', '--store', store]);
  assert.is(r.code, 2);
  assert.match(r.stderr, /--keep <n> and\/or --older-than/);
});

test('when prune --keep 0 would remove every profile, then it asks for --yes (exit 2) and removes nothing; with --yes it does', async () => {
  const before = await listed();
  assert.ok(before.length > 0);
  const refused = await runAppInProcess(['profiles', 'prune', '--keep', '0', '--store', store]);
  assert.is(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /--keep 0 removes every profile: add --yes to confirm/);
  assert.equal(await listed(), before);
  const confirmed = await runAppInProcess(['profiles', 'prune', '--keep', '0', '--yes', '--store', store]);
  assert.is(confirmed.code, 0, confirmed.stderr);
  assert.equal(await listed(), []);
});

test('when clear, then the store is empty, and profiles show of a former token exits 1', async () => {
  const r = await runApp(['profiles', 'clear', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, '');
  assert.match(r.stderr, /empty/);
  assert.equal(await listed(), []);
  const text = await runAppInProcess(['profiles', 'list', '--store', store]);
  assert.is(text.stdout.trim(), 'No results found');
  const show = await runAppInProcess(['profiles', 'show', tokens[4], '--store', store]);
  assert.is(show.code, 1);
  assert.match(show.stderr, new RegExp(`Token "${tokens[4]}" not found`));
});

test.run();
