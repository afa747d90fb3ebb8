import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest } from '../helpers/serve.js';
import { indexLines, segmentFiles, waitUntilIndexed } from '../faults/store-segments.js';

// Required: "A corrupt profile file, a truncated index line or a missing folder never crashes anything: the page
// or command says what is wrong". The pages are tested in tests/faults; here the `app profiles` commands.

const test = suite('app profiles on a damaged store: the command says what is wrong, in one line, and the rest works');
let dir: string;
let store: string;
const tokens: string[] = [];

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-cli-damaged-'));
  store = join(dir, 'store');
  const serve = await serveForTest({ store: store, root: dir });
  try {
    for (const name of ['ann', 'bob', 'cy']) {
      const token = (await fetchText(`${serve.base}/hello/${name}`)).headers['x-debug-token'];
      await fetchProfileJson(serve.base, token);
      await waitUntilIndexed(store, token);
      tokens.push(token);
    }
  } finally {
    await serve.stop();
  }
  const log = segmentFiles(store, 'log').find((file) =>
    indexLines(file.replace(/\.log$/, '.idx')).some((line) => line.token === tokens[1]),
  )!;
  const damaged = indexLines(log.replace(/\.log$/, '.idx')).find((line) => line.token === tokens[1])!;
  const bytes = readFileSync(log);
  bytes[damaged.offset + damaged.length - 5] ^= 0xff;
  writeFileSync(log, bytes);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('when a damaged profile is shown, then exit 1 and one line naming the token and the damage, no stack trace', async () => {
  for (const [i, args] of [
    ['profiles', 'show', tokens[1]],
    ['profiles', 'show', tokens[1], '--json'],
    ['profiles', 'export', tokens[1], '--curl'],
    ['profiles', 'diff', tokens[0], tokens[1]],
  ].entries()) {
    const r = await (i === 0 ? runApp : runAppInProcess)([...args, '--store', store]);
    assert.is(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.is(r.stdout, '', args.join(' '));
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(r.stderr.includes(tokens[1]), r.stderr);
    assert.match(r.stderr, /checksum mismatch|corrupt/);
    assert.not.match(r.stderr, /\n\s+at /);
  }
});

test('when the other profiles are listed and shown, then they read whole, the damaged one still listed', async () => {
  const r = await runAppInProcess(['profiles', 'list', '--json', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const listed = (JSON.parse(r.stdout) as { token: string }[]).map((row) => row.token);
  for (const token of tokens) assert.ok(listed.includes(token), token);
  for (const token of [tokens[0], tokens[2]]) {
    const show = await runAppInProcess(['profiles', 'show', token, '--json', '--store', store]);
    assert.is(show.code, 0, show.stderr);
    assert.is(JSON.parse(show.stdout).token, token);
  }
});

test('when an index ends in the middle of a line, then list still prints valid JSON on stdout, says what it repaired on stderr, and every profile is listed', async () => {
  const [idx] = segmentFiles(store, 'idx');
  appendFileSync(idx, '["abc123",200,"127.0.0.1","GET","http://127.0.0.1/cut');
  const r = await runAppInProcess(['profiles', 'list', '--json', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const listed = (JSON.parse(r.stdout) as { token: string }[]).map((row) => row.token);
  for (const token of tokens) assert.ok(listed.includes(token), token);
  assert.not.match(r.stderr, /\n\s+at /);
});

test('when the store folder does not exist, then list says there is nothing and show says the token is not found, exit codes 0 and 1', async () => {
  const missing = join(dir, 'no-such-store');
  const list = await runApp(['profiles', 'list', '--store', missing]);
  assert.is(list.code, 0, list.stderr);
  assert.is(list.stdout.trim(), 'No results found');
  const show = await runAppInProcess(['profiles', 'show', tokens[0], '--store', missing]);
  assert.is(show.code, 1);
  assert.match(show.stderr, new RegExp(`Token "${tokens[0]}" not found`));
});

test.run();
