import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { summarizeWarnings } from '../../../../core/profiler/storage/warning-summary.js';
import { waitFor } from '../../../helpers/poll.js';

const test = suite('store warnings summarised per interval');

test('when 1000 warnings come within one interval, then the first is told at once and the other 999 in one line naming the first of them', async () => {
  const lines: string[] = [];
  const summary = summarizeWarnings((line) => lines.push(line), 50);
  for (let i = 0; i < 1000; i++) summary.warn(`Could not store profile ${i}.`);
  assert.equal(lines, ['Could not store profile 0.']);
  assert.ok(await waitFor(() => lines.length === 2, 5_000), lines.join('\n'));
  assert.is(lines[1], '999 more profile store warnings in the last 50 ms, the first: Could not store profile 1.');
});

test('when flushed with warnings still counted, then they are told at once', () => {
  const lines: string[] = [];
  const summary = summarizeWarnings((line) => lines.push(line), 60_000);
  summary.warn('a');
  summary.warn('b');
  summary.flush();
  assert.equal(lines, ['a', '1 more profile store warning in the last 60 s, the first: b']);
});

test.run();
