import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ProfileSummary } from '../../../core/profiler/profile.js';
import { renderSearchPage } from '../../../web-profiler/views/search-page.js';
import { notFoundProfile, okProfile, ROBOTS_URL, T0 } from '../../render/fixtures.js';
import { texts } from '../../render/html-assertions.js';

const summary = ({ token, status, ip, method, url, time, duration }: ProfileSummary): ProfileSummary => ({ token, status, ip, method, url, time, duration });
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

test('should have the columns Status, IP, Method, URL, Time, Token in that order, then Duration', () => {
  const $ = load(renderSearchPage(rows, { limit: 10 }));
  assert.equal(texts($, 'table th'), ['Status', 'IP', 'Method', 'URL', 'Time', 'Token', 'Duration']);
});

test('should keep the given order and show the time as date and HH:MM:SS (UTC)', () => {
  const $ = load(renderSearchPage(rows, { limit: 10 }));
  const cells = $('tbody tr').map((_, tr) => [$(tr).find('td').map((__, td) => $(td).text()).get()]).get() as string[][];
  assert.equal(cells[0].slice(0, 6), ['404', '127.0.0.1', 'GET', ROBOTS_URL, '2024-05-14 09:41:07', 'a1b2c3']);
  assert.equal(cells[1].slice(0, 6), ['200', '127.0.0.1', 'GET', 'http://127.0.0.1:8000/hello/world?lang=en', '2024-05-14 09:40:06', 'c0ffee']);
  assert.is($('tbody time').first().attr('datetime'), '2024-05-14T09:41:07Z');
});

test('should link each token to its profile, and IP, method and URL to the search filtered by them', () => {
  const $ = load(renderSearchPage(rows, { limit: 10 }));
  const links = $('tbody tr').first().find('a').map((_, a) => $(a).attr('href')).get();
  assert.equal(links, [
    '/_profiler/search?ip=127.0.0.1&limit=10',
    '/_profiler/search?method=GET&limit=10',
    `/_profiler/search?url=${encodeURIComponent(ROBOTS_URL)}&limit=10`,
    '/_profiler/a1b2c3',
  ]);
});

test('should have a GET search form prefilled from the query, with limits 10/50/100', () => {
  const since = Date.UTC(2024, 4, 14, 9, 0, 0);
  const $ = load(renderSearchPage(rows, { limit: 50, ip: '10.0.0.1', method: 'POST', status: '4xx', url: '/hello', token: 'c0f', since }));
  const form = $('form');
  assert.is(form.attr('method'), 'get');
  assert.is(form.attr('action'), '/_profiler/search');
  const values = Object.fromEntries(form.find('input').map((_, i) => [[$(i).attr('name'), $(i).attr('value')]]).get());
  assert.equal(values, { ip: '10.0.0.1', method: 'POST', status: '4xx', url: '/hello', token: 'c0f', since: '2024-05-14T09:00:00', until: '' });
  assert.equal(form.find('select[name=limit] option').map((_, o) => $(o).attr('value')).get(), ['10', '50', '100']);
  assert.is(form.find('select[name=limit] option[selected]').attr('value'), '50');
  assert.equal(form.find('label').map((_, l) => $(l).contents().first().text()).get(), ['IP', 'Method', 'Status', 'URL', 'Token', 'From (UTC)', 'Until (UTC)', 'Results']);
  assert.is($('tbody a').first().attr('href'), '/_profiler/search?ip=127.0.0.1&limit=50', 'filter links keep the limit');
});

test.run();
