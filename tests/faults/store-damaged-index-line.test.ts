import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson } from '../helpers/serve.js';
import { serveFaults } from './fault-server.js';
import { profiledRequests, segmentFiles } from './store-segments.js';

/** A store left by a server that served `count` requests and stopped; resolves to the folder and the tokens. */
async function storeOf(count: number): Promise<{ dir: string; tokens: string[] }> {
  const dir = join(mkdtempSync(join(tmpdir(), 'appkernel-faults-')), 'store');
  const first = await serveFaults({ storeDir: dir });
  const tokens = await profiledRequests(first, count);
  await first.stop();
  return { dir, tokens };
}

/** Serves the damaged store again: every profile loads through HTTP, and one more is stored. */
async function expectServedWhole(dir: string, tokens: string[]): Promise<string[]> {
  const second = await serveFaults({ storeDir: dir });
  try {
    for (const token of tokens) assert.is((await fetchProfileJson(second.base, token)).token, token);
    const [next] = await profiledRequests(second, 1);
    assert.is((await fetchProfileJson(second.base, next)).token, next);
    return second.lines;
  } finally {
    await second.stop();
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
}

const test = suite('a damaged index line in the profile store, met by the next server');

test("when an index line is garbled, then the server warns, rebuilds the index, and every profile loads, that line's included", async () => {
  const { dir, tokens } = await storeOf(4);
  const [idx] = segmentFiles(dir, 'idx');
  const lines = readFileSync(idx, 'utf8').split('\n');
  lines[1] = lines[1].slice(0, 12) + '\u0000<garbage>' + lines[1].slice(30);
  writeFileSync(idx, lines.join('\n'));
  const printed = await expectServedWhole(dir, tokens);
  assert.ok(
    printed.some((line) => /warning: .*index line 2 is garbled.*its index was rebuilt \(4 profiles\)/.test(line)),
    printed.join('\n'),
  );
});

test('when the index ends in the middle of a line (a crash while appending), then the server warns, recovers that record, and every profile loads', async () => {
  const { dir, tokens } = await storeOf(4);
  const [idx] = segmentFiles(dir, 'idx');
  const text = readFileSync(idx, 'utf8');
  const withoutSeal = text.slice(0, text.lastIndexOf('["seal"'));
  writeFileSync(idx, withoutSeal.slice(0, withoutSeal.length - 25));
  const printed = await expectServedWhole(dir, tokens);
  assert.ok(
    printed.some((line) =>
      /warning: .*its last index line is cut short.*recovered 1 profile from the segment/.test(line),
    ),
    printed.join('\n'),
  );
});

test.run();
