import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ProfileSummary, SearchQuery } from '../../../../core/profiler/profile.js';
import { ProfileIndex } from '../../../../core/profiler/storage/profile-index.js';
import { summaryFilter } from '../../../../core/profiler/storage/summary-filter.js';
import { nthToken } from '../fixtures.js';

/** Deterministic pseudo-random summaries: a few statuses and IPs, many URLs, times out of order in small steps. */
function summaries(count: number): ProfileSummary[] {
  let state = 12345;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  return Array.from({ length: count }, (_, i) => ({
    token: nthToken(i),
    status: [200, 200, 200, 301, 404, 404, 405, 500][next(8)],
    ip: `10.0.0.${next(6)}`,
    method: ['GET', 'GET', 'GET', 'POST', 'HEAD'][next(5)],
    url: `http://127.0.0.1:8000/${['hello', 'orders', 'robots.txt', 'boom'][next(4)]}/${next(i < 100 ? 1000 : 40)}`,
    time: 1_000_000 + i * 10 - next(50),
    duration: next(1000) / 7,
  }));
}

const QUERIES: SearchQuery[] = [
  { limit: 20 },
  { limit: 5000 },
  { limit: 20, status: '404' },
  { limit: 20, status: '5xx' },
  { limit: 20, status: '30' },
  { limit: 50, method: 'post' },
  { limit: 20, ip: '10.0.0.3' },
  { limit: 20, ip: '10.0.0' },
  { limit: 20, url: '/boom/' },
  { limit: 20, url: 'orders/3' },
  { limit: 20, token: '9' },
  { limit: 20, since: 1_010_000, until: 1_012_000 },
  { limit: 20, status: '4xx', method: 'GET', ip: '10.0.0.1', url: 'hello' },
  { limit: 20, until: 1_000_500 },
  { limit: 20, url: 'nowhere' },
];

function bruteForce(all: ProfileSummary[], query: SearchQuery): string[] {
  const filter = summaryFilter(query);
  return all
    .filter(filter)
    .sort((a, b) => b.time - a.time || (a.token < b.token ? 1 : -1))
    .slice(0, query.limit)
    .map((s) => s.token);
}

const test = suite('ProfileIndex');

test('when searching with any mix of filters, then the postings give exactly what a full scan gives, newest first', () => {
  const all = summaries(3000);
  const index = new ProfileIndex();
  all.forEach((s, i) => index.add(s, `seg${Math.floor(i / 500)}`, i * 100, 100));
  for (const query of QUERIES)
    assert.equal(
      index.search(query).map((s) => s.token),
      bruteForce(all, query),
      JSON.stringify(query),
    );
});

test('when segments are removed and a cutoff applied, then searches skip their entries, before and after compaction', () => {
  const all = summaries(3000);
  const index = new ProfileIndex();
  all.forEach((s, i) => index.add(s, `seg${Math.floor(i / 500)}`, i * 100, 100));
  assert.is(index.removeSegment('seg0'), 500);
  assert.is(index.removeSegment('seg1'), 500);
  let live = all.slice(1000);
  for (const query of QUERIES)
    assert.equal(
      index.search(query).map((s) => s.token),
      bruteForce(live, query),
      JSON.stringify(query),
    );
  const key = index.keyKeeping(700)!;
  const removed = index.applyCutoff(key);
  assert.is(removed, 1300);
  assert.is(index.size, 700);
  live = live.filter((s) => s.time > key.time || (s.time === key.time && s.token > key.token));
  for (const query of QUERIES)
    assert.equal(
      index.search(query).map((s) => s.token),
      bruteForce(live, query),
      JSON.stringify(query),
    );
  assert.is(index.add(all[1000], 'seg9', 0, 1), null, 'an entry older than the cutoff is not added back');
  const liveTokens = new Set(live.map((s) => s.token));
  for (const { token } of all)
    assert.is(index.has(token), liveTokens.has(token), `has(${token}) after removals and the cutoff`);
});

test("when counting with any mix of filters, the profiler's own requests left out or not, then the count is a full scan's, after removals, a cutoff, compaction and a token added again", () => {
  // Every seventh a request to the profiler itself, so that leaving them out changes each count.
  const all = summaries(3000).map((s, i) =>
    i % 7 === 0
      ? { ...s, url: i % 2 ? `http://127.0.0.1:8000/_profiler/${s.token}` : 'http://127.0.0.1:8000/_profiler' }
      : s,
  );
  const queries = [
    ...QUERIES,
    { limit: 1, url: '_profiler' },
    { limit: 1, method: ' ' },
    { limit: 1, ip: '', url: 'boom' },
    { limit: 1, status: '4xx', url: 'hello' },
    { limit: 1, since: 1_012_000 },
    { limit: 1, since: 1_012_345.5, until: 1_012_345.5 },
    { limit: 1, since: 1_020_000, until: 1_010_000 },
    { limit: 1, since: 1_015_000, until: 1_025_000 },
    { limit: 1, status: '404', method: 'GET' },
    { limit: 1, status: '4xx', method: 'get' },
    { limit: 1, status: '5', method: 'POST' },
    { limit: 1, token: 'a' },
    { limit: 1, token: '0' },
    { limit: 1, token: 'A0' },
    { limit: 1, token: 'x' },
  ].flatMap((q) => [q, { ...q, hideProfiler: true }]);
  const index = new ProfileIndex();
  all.forEach((s, i) => index.add(s, `seg${Math.floor(i / 500)}`, i * 100, 100));
  const check = (live: ProfileSummary[], when: string) => {
    for (const query of queries)
      assert.is(index.count(query), live.filter(summaryFilter(query)).length, `${when}: ${JSON.stringify(query)}`);
  };
  check(all, 'all added');
  // The same tokens again, now a 500 elsewhere (and the profiler's): the older entries no longer count.
  const moved = { ...all[2999], status: 500, url: 'http://127.0.0.1:8000/elsewhere' };
  const movedBack = { ...all[1500], time: 1_016_000.25, url: 'http://127.0.0.1:8000/_profiler/search' };
  index.add(moved, 'seg9', 0, 100);
  index.add(movedBack, 'seg9', 100, 100);
  let live = [...all.slice(0, 1500), ...all.slice(1501, 2999), moved, movedBack];
  check(live, 'a token added again');
  index.removeSegment('seg0');
  live = live.slice(500);
  check(live, 'a segment removed');
  index.removeSegment('seg4');
  live = live.filter((s) => !all.slice(2000, 2500).includes(s));
  check(live, 'a segment in the middle removed');
  const key = index.keyKeeping(300)!;
  index.applyCutoff(key);
  live = live.filter((s) => s.time > key.time || (s.time === key.time && s.token > key.token));
  assert.is(live.length, 300);
  check(live, 'a cutoff applied (compacted)');
});

test("when searching and counting by a token prefix of 3 digits or more, then its tokens' bits find exactly what a full scan finds, with any other filter, after removals and with a token of another form", () => {
  // Every sixtieth token starts with ab1, so that the prefix has matches spread over the store.
  const all = summaries(3000).map((s, i) =>
    i % 60 === 0 ? { ...s, token: `ab1${i.toString(16).padStart(3, '0')}` } : s,
  );
  const queries: SearchQuery[] = [
    { limit: 20, token: 'ab1' },
    { limit: 5, token: 'AB1' },
    { limit: 20, token: 'ab10' },
    { limit: 20, token: 'ab1000' },
    { limit: 20, token: 'ab10000' },
    { limit: 20, token: 'ab1', status: '4xx' },
    { limit: 20, token: 'ab1', since: 1_005_000, until: 1_020_000 },
    { limit: 20, token: 'ab1', offset: 10 },
    { limit: 20, token: 'zz1' },
    { limit: 20, token: 'a-1' },
    { limit: 20, token: 'ab' },
  ];
  const index = new ProfileIndex();
  all.forEach((s, i) => index.add(s, `seg${Math.floor(i / 500)}`, i * 100, 100));
  assert.is(index.size, all.length);
  const check = (live: ProfileSummary[], when: string) => {
    for (const query of queries) {
      assert.equal(
        index.search(query).map((s) => s.token),
        bruteForce(live, { ...query, limit: (query.offset ?? 0) + query.limit }).slice(query.offset ?? 0),
        `${when}: ${JSON.stringify(query)}`,
      );
      assert.is(
        index.count(query),
        live.filter(summaryFilter(query)).length,
        `${when}, count: ${JSON.stringify(query)}`,
      );
    }
  };
  check(all, 'all added');
  index.removeSegment('seg0');
  let live = all.slice(500);
  check(live, 'a segment removed');
  const odd = { ...all[1], token: 'ab1-odd', time: 2_000_000 };
  index.add(odd, 'seg9', 0, 100);
  live = [...live, odd];
  check(live, 'a token of another form added');
});

test('when a token is added again elsewhere, then the newer location replaces the older one', () => {
  const index = new ProfileIndex();
  const summary = summaries(1)[0];
  index.add(summary, 'a', 0, 10);
  index.add(summary, 'a', 0, 10);
  assert.is(index.size, 1, 'the same location twice is one entry');
  index.add(summary, 'b', 50, 10);
  assert.is(index.size, 1);
  assert.is(index.get(summary.token)?.segment, 'b');
  assert.is(index.countIn('a'), 0);
  assert.is(index.countIn('b'), 1);
  assert.ok(index.has(summary.token), 'the replaced entry leaves its token known');
});

test('when tokens are not of the generated form, then has() still knows them', () => {
  const index = new ProfileIndex();
  const summary = { ...summaries(1)[0], token: 'legacy-token' };
  index.add(summary, 'a', 0, 10);
  assert.ok(index.has('legacy-token'));
  assert.not.ok(index.has('legacy-other'));
  assert.is(index.removeSegment('a'), 1);
  assert.not.ok(index.has('legacy-token'));
});

test("when an index only counts (a writer's, for retention), then each segment's profiles, newest time and the size are a full index's, after removals and a cutoff that empties a segment, and it lists none", () => {
  const full = new ProfileIndex();
  const counts = new ProfileIndex({ countsOnly: true });
  const all = summaries(3_000);
  all.forEach((summary, i) => {
    const segment = `seg${Math.floor(i / 500)}`;
    full.add(summary, segment, i * 10, 10);
    counts.add(summary, segment, i * 10, 10);
  });
  const segments = ['seg0', 'seg1', 'seg2', 'seg3', 'seg4', 'seg5'];
  const figures = (index: ProfileIndex) => [
    index.size,
    ...segments.map((segment) => [index.countIn(segment), index.newestIn(segment)]),
  ];
  assert.equal(figures(counts), figures(full));
  assert.is(counts.removeSegment('seg3'), 500);
  full.removeSegment('seg3');
  assert.equal(figures(counts), figures(full));
  // past every profile of seg0: it empties, as in a full index
  const cutoff = { time: full.newestIn('seg0') + 1, token: '' };
  assert.is(full.countIn('seg1') > 0, true);
  counts.applyCutoff(cutoff);
  full.applyCutoff(cutoff);
  assert.is(counts.countIn('seg0'), 0);
  assert.is(full.countIn('seg0'), 0);
  assert.ok(counts.countIn('seg1') >= full.countIn('seg1'), 'a segment the cutoff cuts through is counted whole');
  assert.equal(counts.search({ limit: 20 }), []);
  assert.is(counts.get(all[2_999].token), undefined);
  assert.is(counts.add({ ...all[0], time: cutoff.time - 1 }, 'seg6', 0, 10), null);
  assert.is(counts.countIn('seg6'), 0, 'a profile older than the cutoff is not counted');
});

test.run();
