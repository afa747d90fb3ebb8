import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ProfileSummary } from '../../../core/profiler/profile.js';
import { renderProfileListText } from '../../../render/text/profile-list-text.js';

const test = suite('profiles list reads at 80 columns: the path leads, the origin only when there are several');
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const row = (token: string, url: string, extra: Partial<ProfileSummary> = {}): ProfileSummary => ({
  token,
  status: 200,
  ip: '127.0.0.1',
  method: 'GET',
  url,
  time: NOW - 60_000,
  duration: 3.25,
  route: 'item',
  ...extra,
});
const rows = [
  row('a00001', 'http://127.0.0.1:18200/api/items/1?view=full'),
  row('a00002', 'http://127.0.0.1:18200/api/items/2?view=full'),
];

for (const width of [80, 100]) {
  test(`when listed at ${width} columns, then every line fits and the two requests read apart by their path and query`, () => {
    const text = renderProfileListText(rows, { color: false, width, now: NOW });
    for (const line of text.split('\n')) assert.ok(line.length <= width, `${line.length}: ${line}`);
    assert.ok(text.includes('/api/items/1?view=full') && text.includes('/api/items/2?view=full'), text);
    assert.not.ok(text.includes('127.0.0.1'), 'one origin and one IP: neither is shown');
    assert.match(text, /11:59:00/, 'a time of today is its clock only');
  });
}

test('when a shared store lists two servers, then the Instance column does not squeeze the path away at 80 columns', () => {
  const shared = [
    row('b00001', 'http://127.0.0.1:18200/api/items/1', { instance: 'devbox-ann:18200' }),
    row('b00002', 'http://127.0.0.1:18300/api/items/2', { instance: 'devbox-bob:18300' }),
  ];
  const text = renderProfileListText(shared, { color: false, width: 80, now: NOW });
  for (const line of text.split('\n')) assert.ok(line.length <= 80, `${line.length}: ${line}`);
  assert.match(text, / \/api\/items\/1 .*devbox-ann/);
  assert.match(text, / \/api\/items\/2 .*devbox-bob/);
});

test('when rows come from two ports of one host without instances, then the path says ":port" before it, not the whole origin', () => {
  const two = [
    row('c00001', 'http://127.0.0.1:18200/api/items/1'),
    row('c00002', 'http://127.0.0.1:18300/api/items/2'),
  ];
  const text = renderProfileListText(two, { color: false, width: 80, now: NOW });
  assert.match(text, / :18200\/api\/items\/1 /);
  assert.match(text, / :18300\/api\/items\/2 /);
});

test('when --wide, then every column: IP, the full URL and time, the route', () => {
  const text = renderProfileListText(rows, { color: false, wide: true, now: NOW });
  assert.match(text, /IP +Method +URL +Time +Duration +Route +Token/);
  assert.ok(
    text.includes('http://127.0.0.1:18200/api/items/1?view=full') && text.includes('2026-11-28 11:59:00 UTC'),
    text,
  );
});

test.run();
