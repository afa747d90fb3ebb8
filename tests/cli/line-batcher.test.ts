import { setTimeout as sleep } from 'node:timers/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lineBatcher } from '../../cli/line-batcher.js';

// `app serve` prints a line per request: under load, one write for many lines instead of a system call each,
// and a quiet server's line still shows at once.

const test = suite('lineBatcher: one write per burst of lines, a lone line at once, nothing lost');

test('a burst of lines pushed together leaves in one write, in order', async () => {
  const writes: string[] = [];
  const lines = lineBatcher((text) => writes.push(text));
  for (let i = 0; i < 100; i++) lines.push(`GET /a/${i} 200`);
  assert.equal(writes, [], 'nothing is written in the middle of the burst');
  await sleep(40);
  assert.equal(writes.length, 1);
  assert.equal(writes[0], Array.from({ length: 100 }, (_, i) => `GET /a/${i} 200\n`).join(''));
});

test('lines arriving while a write is recent wait for the next one; a later lone line goes out within a few ms', async () => {
  const writes: string[] = [];
  const lines = lineBatcher((text) => writes.push(text));
  lines.push('first');
  await sleep(5);
  assert.equal(writes, ['first\n']);
  lines.push('second');
  lines.push('third');
  await sleep(5);
  assert.equal(writes, ['first\n'], 'within the linger time of the last write, lines gather');
  await sleep(40);
  assert.equal(writes, ['first\n', 'second\nthird\n']);
  await sleep(30);
  lines.push('quiet again');
  await sleep(5);
  assert.equal(writes.at(-1), 'quiet again\n');
});

test('flush() writes what is pending now, and a flush with nothing pending writes nothing', () => {
  const writes: string[] = [];
  const lines = lineBatcher((text) => writes.push(text));
  lines.flush();
  lines.push('one');
  lines.push('two');
  lines.flush();
  assert.equal(writes, ['one\ntwo\n']);
  lines.flush();
  assert.equal(writes.length, 1);
});

test.run();
