import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { explainMiss } from '../../core/routing/explain-miss.js';
import { RouteCollection } from '../../core/routing/route-collection.js';
import { renderErrorPage } from '../../render/error-page.js';
import { renderRouteMiss } from '../../render/exception-routing.js';
import { notFoundErrorPage, PAYLOADS } from './fixtures.js';
import { assertNoInjection, texts } from './html-assertions.js';

const routes = new RouteCollection()
  .add('home', { path: '/', methods: ['GET'], controller: 'c' })
  .add('post', { path: '/posts/{id<\\d+>}', methods: ['GET'], controller: 'c' })
  .add('contact', { path: '/contact', methods: ['POST'], controller: 'c' })
  .add('boom', { path: '/boom', controller: 'c' });

const test = suite('renderRouteMiss: why no route matched, on the 404 and 405 pages');

test('when a requirement fails, then the page says which, with the value, above the exceptions', () => {
  const $ = load(renderErrorPage(notFoundErrorPage({ routing: explainMiss(routes, 'GET', '/posts/abc') })));
  const block = $('main > section.routing-miss');
  assert.is(block.length, 1);
  assert.ok(
    block.index() <
      $('main > section')
        .filter((_, s) => $(s).find('.exc').length > 0)
        .index(),
    'above the exceptions',
  );
  assert.is(block.find('h2').text(), 'Why no route matched GET /posts/abc');
  assert.equal(texts($, 'table.route-miss thead th'), ['Route', 'Path', 'Methods', 'Why it missed']);
  const first = block.find('table.route-miss tbody tr').first();
  assert.ok(first.hasClass('miss-requirement'));
  assert.equal(
    first
      .find('td')
      .map((_, td) => $(td).text())
      .get(),
    ['post', '/posts/{id}', 'GET', 'Requirement for "{id}" (\\d+) does not match "abc"'],
  );
  assert.is(
    block.find('.did-you-mean li').first().text(),
    'GET /posts/{id} route post',
    'a pattern that cannot be filled is named, not linked',
  );
  assert.is(block.find('.did-you-mean a').length, 0);
});

test('when the path is a typo of a GET route, then "Did you mean" links to it', () => {
  const $ = load(renderRouteMiss(explainMiss(routes, 'GET', '/post/7')));
  const link = $('.did-you-mean a');
  assert.is(link.length, 1);
  assert.is(link.attr('href'), '/posts/7');
  assert.is(link.text(), 'GET /posts/7');
});

test('when the method does not fit (405), then the route is listed first with the method verdict, its methods shown', () => {
  const $ = load(renderRouteMiss(explainMiss(routes, 'GET', '/contact')));
  const first = $('table.route-miss tbody tr').first();
  assert.ok(first.hasClass('miss-method'));
  assert.equal(
    first
      .find('td')
      .map((_, td) => $(td).text())
      .get(),
    ['contact', '/contact', 'POST', 'Method "GET" does not match any of the required methods (POST)'],
  );
  assert.is($('.did-you-mean').length, 0);
  assert.ok($('table.route-miss tbody').text().includes('ANY'), 'a route for any method says so');
});

test('when the error has no routing explanation (a 500), then there is no block', () => {
  assert.is(load(renderErrorPage(notFoundErrorPage()))('.routing-miss').length, 0);
  assert.is(load(renderErrorPage(notFoundErrorPage({ routing: null })))('.routing-miss').length, 0);
});

test('when the app has no routes, then the block says so', () => {
  const $ = load(renderRouteMiss(explainMiss(new RouteCollection(), 'GET', '/x')));
  assert.is($('.routing-miss .empty').text(), 'The app has no routes.');
});

test('when payloads are in the path, route names, patterns, details and links, then nothing is injected and they show as text', () => {
  const p = PAYLOADS.join(' ');
  const html = renderErrorPage(
    notFoundErrorPage({
      routing: {
        method: p,
        path: `/${p}`,
        closest: [{ name: p, path: p, methods: [p], verdict: 'path', detail: p }],
        suggestions: [
          { name: p, path: p, url: `/${p}` },
          { name: p, path: p, url: 'javascript:alert(1)' },
          { name: p, path: p, url: '//evil.test/x' },
        ],
      },
    }),
  );
  assertNoInjection(html, 'route miss block');
  const $ = load(html);
  assert.ok($('.routing-miss h2').text().includes(p));
  assert.ok($('table.route-miss tbody').text().includes(p));
  const hrefs = $('.did-you-mean a')
    .map((_, a) => $(a).attr('href'))
    .get();
  assert.equal(hrefs, [`/${p}`], 'only a path on this server is linked');
  assert.is($('.did-you-mean li').length, 3);
});

test('given a shared frozen miss, when rendered again, then the HTML is what an unfrozen copy of it gives', () => {
  const table = new RouteCollection().add('post', { path: '/posts/{id<\\d+>}', methods: ['GET'], controller: 'c' });
  const miss = explainMiss(table, 'GET', '/posts/<b>');
  const copy = {
    ...miss,
    closest: miss.closest.map((r) => ({ ...r, methods: [...r.methods] })),
    suggestions: miss.suggestions.map((s) => ({ ...s })),
  };
  assert.is(renderRouteMiss(miss), renderRouteMiss(copy));
  assert.is(renderRouteMiss(miss), renderRouteMiss(copy));
  copy.closest[0].detail = 'changed';
  assert.match(renderRouteMiss(copy), /changed/);
  assert.not.match(renderRouteMiss(miss), /<b>/);
});

test.run();
