import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { serveFaults, type FaultServer } from './fault-server.js';
import { indexLines, profiledRequests, segmentFiles } from './store-segments.js';

const test = suite('a damaged profile record in the store of a running server');
let t: FaultServer;
test.before.each(async () => {
  t = await serveFaults();
});
test.after.each(async () => {
  await t.stop();
});

test('when a stored record\'s bytes are damaged, then its page and JSON answer 422 "damaged or too large" naming the damage, the others load, and serving and profiling go on', async () => {
  const tokens = await profiledRequests(t, 3);
  const [log] = segmentFiles(t.storeDir, 'log');
  const damaged = indexLines(segmentFiles(t.storeDir, 'idx')[0]).find((line) => line.token === tokens[1])!;
  const bytes = readFileSync(log);
  bytes[damaged.offset + damaged.length - 5] ^= 0xff;
  writeFileSync(log, bytes);

  const json = await fetchText(`${t.base}/_profiler/${tokens[1]}.json`);
  assert.is(json.status, 422);
  const page = await fetchText(`${t.base}/_profiler/${tokens[1]}`);
  assert.is(page.status, 422);
  assert.match(load(page.body).root().text(), 'This profile is damaged or too large.');
  assert.match(load(page.body).root().text(), `Profile "${tokens[1]}"`);
  assert.match(load(page.body).root().text(), 'checksum mismatch');
  for (const token of [tokens[0], tokens[2]]) assert.is((await fetchProfileJson(t.base, token)).token, token);
  const search = await fetchText(`${t.base}/_profiler/search?limit=50`);
  assert.is(search.status, 200);
  assert.ok(search.body.includes(tokens[1]), 'the damaged profile is still listed: the list reads the index only');
  const [after] = await profiledRequests(t, 1);
  assert.is((await fetchProfileJson(t.base, after)).token, after, 'profiles written after the damage load');
});

test('when a segment log is cut short under its index, then the profiles past the cut answer 422 saying so, and new ones are stored', async () => {
  const tokens = await profiledRequests(t, 3);
  const [log] = segmentFiles(t.storeDir, 'log');
  const lines = indexLines(segmentFiles(t.storeDir, 'idx')[0]);
  const cut = lines.find((line) => line.token === tokens[1])!;
  truncateSync(log, cut.offset + 20);
  for (const token of [tokens[1], tokens[2]]) {
    const page = await fetchText(`${t.base}/_profiler/${token}`);
    assert.is(page.status, 422, token);
    assert.match(
      load(page.body).root().text(),
      /is corrupt: the segment ends (\d+ bytes before the end of the record|before the record starts \(it holds \d+ bytes\))/,
    );
  }
  // A record that starts past the cut is said to, with the segment's size: not a count of missing bytes.
  // The pages just read are profiled too: their profiles are appended first, then the segment is cut.
  await sizeSettled(log);
  truncateSync(log, cut.offset);
  const past = load((await fetchText(`${t.base}/_profiler/${tokens[1]}`)).body)
    .root()
    .text();
  assert.match(past, `is corrupt: the segment ends before the record starts (it holds ${cut.offset} bytes)`);
  assert.is((await fetchProfileJson(t.base, tokens[0])).token, tokens[0]);
  const [after] = await profiledRequests(t, 1);
  assert.is((await fetchProfileJson(t.base, after)).token, after);
});

/** Resolves once `file` has not grown for 200 ms (5 s at most). */
async function sizeSettled(file: string): Promise<void> {
  let size = -1;
  for (const end = Date.now() + 5_000; Date.now() < end; ) {
    const now = statSync(file).size;
    if (now === size) return;
    size = now;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test.run();
