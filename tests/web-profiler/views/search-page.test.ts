import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ProfileSummary } from '../../../core/profiler/profile.js';
import { renderSearchPage } from '../../../web-profiler/views/search-page.js';
import { notFoundProfile, okProfile, ROBOTS_URL, T0 } from '../../render/fixtures.js';
import { texts } from '../../render/html-assertions.js';

const summary = ({ token, status, ip, method, url, time, duration }: ProfileSummary): ProfileSummary => ({
  token,
  status,
  ip,
  method,
  url,
  time,
  duration,
});
const rows = [summary(notFoundProfile()), { ...summary(okProfile()), time: T0 - 61_000 }];

const test = suite('renderSearchPage');

test('should have the heading Profile Search and "<n> results found"', () => {
  const $ = load(renderSearchPage(rows, { limit: 10 }));
  assert.is($('h1').text(), 'Profile Search');
  assert.is($('h2').text(), '2 results found');
});

test('when nothing matches, then "No results found" and no table', () => {
  const $ = load(renderSearchPage([], { limit: 10 }));
  assert.is($('h2').text(), 'No results found');
  assert.is($('table').length, 0);
});

test('should have the columns Status, IP, Method, URL, Time, Token in that order, then Route and Duration', () => {
  const $ = load(renderSearchPage(rows, { limit: 10 }));
  assert.equal(texts($, 'table th'), ['Status', 'IP', 'Method', 'URL', 'Time', 'Token', 'Route', 'Duration']);
});

test('when a URL is longer than 160 characters, then its cell shows the first 160 and an ellipsis, the whole URL in the title and the filter link', () => {
  const long = `http://127.0.0.1:8000/${'a'.repeat(300)}?q=${'b'.repeat(100)}`;
  const $ = load(renderSearchPage([{ ...rows[0], url: long }, rows[1]], { limit: 10 }));
  const [cut, short] = [$('tbody td.url a').eq(0), $('tbody td.url a').eq(1)];
  assert.is(cut.text(), `${long.slice(0, 160)}\u2026`);
  assert.is(cut.attr('title'), long);
  assert.is(new URL(cut.attr('href')!, 'http://x').searchParams.get('url'), long);
  assert.is(short.text(), rows[1].url);
  assert.is(short.attr('title'), undefined);
});

test('when a URL holds a bidi override, then the cell shows it as its escape', () => {
  const $ = load(renderSearchPage([{ ...rows[0], url: 'http://127.0.0.1:8000/invoice\u202egpj.exe' }], { limit: 10 }));
  assert.is($('tbody td.url a').text(), 'http://127.0.0.1:8000/invoice\\u202egpj.exe');
});

test('should name each row\'s route: the name, "none" when none matched, "unknown" for rows stored before routes were indexed', () => {
  const named = [
    { ...rows[0], route: null },
    { ...rows[1], route: 'hello' },
    { ...rows[1], token: 'd00d00' },
  ];
  const $ = load(renderSearchPage(named, { limit: 10 }));
  assert.equal(
    $('tbody tr')
      .map((_, tr) => $(tr).find('td').eq(6).text())
      .get(),
    ['none', 'hello', 'unknown'],
  );
});

test('when more matched than are shown, then "<shown> of <total> results found", and the older page is a link keeping the filters', () => {
  const $ = load(renderSearchPage(rows, { limit: 10, status: '4xx', hideProfiler: true }, 243));
  assert.is($('h2').text(), '2 of 243 results found');
  assert.equal(
    $('nav.pager')
      .first()
      .find('a')
      .map((_, a) => [[$(a).attr('rel'), $(a).attr('href')]])
      .get(),
    [['next', '/_profiler/search?status=4xx&limit=10&offset=10']],
  );
  assert.ok($('nav.pager').first().text().includes('1–2 of 243'));
});

test('when the store stopped counting, then "<shown> of 10,000+ results found", and the older page is a link', () => {
  const $ = load(renderSearchPage(rows, { limit: 10, hideProfiler: true }, { n: 10_000, more: true }));
  assert.is($('h2').text(), '2 of 10,000+ results found');
  assert.equal(
    $('nav.pager')
      .first()
      .find('a')
      .map((_, a) => $(a).attr('rel'))
      .get(),
    ['next'],
  );
  assert.ok($('nav.pager').first().text().includes('1–2 of 10,000+'));
});

test('when on a later page, then a newer link (offset minus the limit) and an older one while more remain; none past the last', () => {
  const middle = load(renderSearchPage(rows, { limit: 10, offset: 10 }, 30));
  assert.equal(
    middle('nav.pager')
      .first()
      .find('a')
      .map((_, a) => [[middle(a).attr('rel'), middle(a).attr('href')]])
      .get(),
    [
      ['prev', '/_profiler/search?limit=10&profiler=1'],
      ['next', '/_profiler/search?limit=10&profiler=1&offset=20'],
    ],
  );
  const last = load(renderSearchPage(rows, { limit: 10, offset: 28, hideProfiler: true }, 30));
  assert.equal(
    last('nav.pager')
      .first()
      .find('a')
      .map((_, a) => last(a).attr('href'))
      .get(),
    ['/_profiler/search?limit=10&offset=18'],
  );
  assert.is(last('h2').text(), '2 of 30 results found');
});

test('when everything matched is shown, then no pager and the count as the reference says it', () => {
  const $ = load(renderSearchPage(rows, { limit: 10 }, 2));
  assert.is($('nav.pager').length, 0);
  assert.is($('h2').text(), '2 results found');
});

test("when the profiler's own requests are hidden, then a visible link shows them, and once shown a link hides them", () => {
  const hidden = load(renderSearchPage(rows, { limit: 10, url: '/x', hideProfiler: true }));
  assert.ok(hidden('.profiler-toggle').text().includes('hidden'));
  assert.is(hidden('.profiler-toggle a').attr('href'), '/_profiler/search?url=%2Fx&limit=10&profiler=1');
  assert.is(hidden('input[name=profiler]').attr('checked'), undefined);
  const shown = load(renderSearchPage(rows, { limit: 10, url: '/x' }));
  assert.is(shown('.profiler-toggle a').attr('href'), '/_profiler/search?url=%2Fx&limit=10');
  assert.is(shown('input[name=profiler]').attr('checked'), 'checked');
});

test('should give every text field a hint that cannot be read as a value: "e.g. ..." and styled as a placeholder', () => {
  const $ = load(renderSearchPage(rows, { limit: 10 }));
  const hints = $('form input[placeholder]')
    .map((_, i) => $(i).attr('placeholder'))
    .get();
  assert.is(hints.length, 5);
  for (const hint of hints) assert.match(hint, /^e\.g\. /);
  assert.match($('style').text(), /::placeholder\{[^}]*font-style:italic/);
});

test('should keep the given order and show the time as date and HH:MM:SS (UTC)', () => {
  const $ = load(renderSearchPage(rows, { limit: 10 }));
  const cells = $('tbody tr')
    .map((_, tr) => [
      $(tr)
        .find('td')
        .map((__, td) => $(td).text())
        .get(),
    ])
    .get() as string[][];
  assert.equal(cells[0].slice(0, 6), ['404', '127.0.0.1', 'GET', ROBOTS_URL, '2024-05-14 09:41:07', 'a1b2c3']);
  assert.equal(cells[1].slice(0, 6), [
    '200',
    '127.0.0.1',
    'GET',
    'http://127.0.0.1:8000/hello/world?lang=en',
    '2024-05-14 09:40:06',
    'c0ffee',
  ]);
  assert.is($('tbody time').first().attr('datetime'), '2024-05-14T09:41:07Z');
});

test('should link each token to its profile, and IP, method and URL to the search filtered by them', () => {
  const $ = load(renderSearchPage(rows, { limit: 10 }));
  const links = $('tbody tr')
    .first()
    .find('a')
    .map((_, a) => $(a).attr('href'))
    .get();
  assert.equal(links, [
    '/_profiler/search?ip=127.0.0.1&limit=10',
    '/_profiler/search?method=GET&limit=10',
    `/_profiler/search?url=${encodeURIComponent(ROBOTS_URL)}&limit=10`,
    '/_profiler/a1b2c3',
  ]);
});

test('should have a GET search form prefilled from the query, with limits 10/50/100', () => {
  const since = Date.UTC(2024, 4, 14, 9, 0, 0);
  const $ = load(
    renderSearchPage(rows, {
      limit: 50,
      ip: '10.0.0.1',
      method: 'POST',
      status: '4xx',
      url: '/hello',
      token: 'c0f',
      since,
    }),
  );
  const form = $('form');
  assert.is(form.attr('method'), 'get');
  assert.is(form.attr('action'), '/_profiler/search');
  const values = Object.fromEntries(
    form
      .find('input')
      .map((_, i) => [[$(i).attr('name'), $(i).attr('value')]])
      .get(),
  );
  assert.equal(values, {
    ip: '10.0.0.1',
    method: 'POST',
    status: '4xx',
    url: '/hello',
    token: 'c0f',
    since: '2024-05-14T09:00:00',
    until: '',
    profiler: '1',
  });
  assert.equal(
    form
      .find('select[name=limit] option')
      .map((_, o) => $(o).attr('value'))
      .get(),
    ['10', '50', '100'],
  );
  assert.is(form.find('select[name=limit] option[selected]').attr('value'), '50');
  assert.equal(
    form
      .find('label')
      .map((_, l) => $(l).contents().first().text())
      .get(),
    ['IP', 'Method', 'Status', 'URL', 'Token', 'From (UTC)', 'Until (UTC)', 'Results', "Profiler's own requests"],
  );
  assert.is(
    $('tbody a').first().attr('href'),
    '/_profiler/search?ip=127.0.0.1&limit=50',
    'filter links keep the limit',
  );
});

test.run();
