import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseQueryStacks } from '../../cli/options.js';
import { parseUtcTime } from '../../core/profiler/utc-time.js';
import { runCliInProcess } from '../helpers/cli.js';

const test = suite(
  'numbers and dates out of range in CLI options are usage errors (exit 2, one line), never a database error',
);

for (const args of [
  ['profiles', 'list', '--limit', '1000000000000000000000000'],
  ['profiles', 'list', '--limit', '1e24'],
  ['profiles', 'list', '--since', '-1'],
  ['profiles', 'list', '--since', '2026-13-45'],
  ['profiles', 'list', '--until', 'May 3'],
  ['profiles', 'list', '--since', '99999999999999d'],
  ['profiles', 'prune', '--keep', '99999999999999999999'],
  ['profiles', 'prune', '--older-than', '1e9d'],
  ['profiles', 'list', '--min-queries', '-3'],
  ['serve', '--port', '0', '--slow-query', 'soon'],
  ['serve', '--port', '0', '--slow-query', '-5'],
  ['serve', '--port', '0', '--query-stacks', 'some'],
  ['serve', '--port', '0', '--query-stacks', '-1'],
  ['serve', '--port', '0', '--query-stacks', '2.5'],
]) {
  test(`when ${args.join(' ')}, then exit 2 with one line naming the option's value`, async () => {
    const r = await runCliInProcess([...args, '--store', '/nonexistent/appkernel-store']);
    assert.is(r.code, 2, r.stdout + r.stderr);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^app: Invalid /);
    assert.not.match(r.stderr, /bigint|out of range for type/);
  });
}

test('when --query-stacks is a whole number or all, then it is read as that many runs, all as every run', () => {
  assert.is(parseQueryStacks('0'), 0);
  assert.is(parseQueryStacks('12'), 12);
  assert.is(parseQueryStacks('all'), Number.POSITIVE_INFINITY);
});

test('when a time is ISO 8601, then it is read (in UTC unless it names a zone); anything else is no time', () => {
  assert.is(parseUtcTime('2026-11-22T14:00'), Date.UTC(2026, 10, 22, 14));
  assert.is(parseUtcTime('2026-11-22T14:00+01:00'), Date.UTC(2026, 10, 22, 13));
  assert.is(parseUtcTime('2026-11-22'), Date.UTC(2026, 10, 22));
  for (const text of ['-1', '1', 'May 3', '2026-13-45', '2026-11-22T25:00', '+275760-09-13'])
    assert.ok(Number.isNaN(parseUtcTime(text)), text);
});

test.run();
