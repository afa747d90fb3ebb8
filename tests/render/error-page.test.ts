import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderErrorPage, renderProductionErrorPage } from '../../render/error-page.js';
import {
  longLog,
  NOT_FOUND_MESSAGE,
  notFoundErrorPage,
  ROBOTS_URL,
  ROUTING_MESSAGE,
  serverErrorProfile,
  T0,
} from './fixtures.js';
import { texts, textIndex } from './html-assertions.js';

const test = suite('renderErrorPage');

test('should be a complete UTF-8 English document without script', () => {
  const html = renderErrorPage(notFoundErrorPage());
  assert.ok(html.startsWith('<!DOCTYPE html>'));
  const $ = load(html);
  assert.is($('html').attr('lang'), 'en');
  assert.is($('meta[charset]').attr('charset'), 'UTF-8');
  assert.is($('script, link[rel=stylesheet]').length, 0);
});

test('when a 404, then the title is "<message> (404 Not Found)" and the heading "Error 404 Not Found"', () => {
  const $ = load(renderErrorPage(notFoundErrorPage()));
  assert.is($('title').text(), `${NOT_FOUND_MESSAGE} (404 Not Found)`);
  assert.is($('h1').first().text(), 'Error 404 Not Found');
});

test('should show the request method and URL, and the outer message as the main heading', () => {
  const $ = load(renderErrorPage(notFoundErrorPage()));
  assert.ok($('header').text().includes(`GET ${ROBOTS_URL}`));
  assert.is($('header h2').text(), NOT_FOUND_MESSAGE);
});

test('should show both exceptions of the chain with class, message and frames', () => {
  const $ = load(renderErrorPage(notFoundErrorPage()));
  const cards = $('.exc');
  assert.is(cards.length, 2);
  assert.is(cards.eq(0).find('h3').text(), 'NotFoundHttpError');
  assert.is(cards.eq(0).find('.msg').text(), NOT_FOUND_MESSAGE);
  assert.is(cards.eq(1).find('h3').text(), 'ResourceNotFoundError');
  assert.is(cards.eq(1).find('.msg').text(), ROUTING_MESSAGE);
  assert.ok(cards.eq(0).text().includes('RouterListener.onKernelRequest'));
  assert.ok(cards.eq(0).text().includes('node_modules/appkernel/dist/core/kernel/router-listener.ts line 64'));
});

test('when a 404, then [2/2] (NotFoundHttpError) comes before [1/2] (ResourceNotFoundError)', () => {
  const html = renderErrorPage(notFoundErrorPage());
  const two = textIndex(html, '[2/2] NotFoundHttpError');
  const one = textIndex(html, '[1/2] ResourceNotFoundError');
  assert.ok(two !== -1 && one !== -1 && two < one, `${two} < ${one}`);
});

test('when the chain has one exception, then its trace has no [n/total] number', () => {
  const profile = serverErrorProfile();
  const html = renderErrorPage({
    ...notFoundErrorPage(),
    status: 500,
    statusText: 'Internal Server Error',
    exception: profile.collectors.exception!,
  });
  assert.not.match(load(html).root().text(), /\[\d+\/\d+\]/);
  assert.ok(texts(load(html), 'h3').includes('Error'));
});

test('should show the log table with the columns Level, Channel, Message, the UTC time with milliseconds and pretty JSON context', () => {
  const $ = load(renderErrorPage(notFoundErrorPage()));
  const table = $('table.log').first();
  assert.equal(
    table
      .find('th')
      .map((_, th) => $(th).text())
      .get(),
    ['Level', 'Channel', 'Message'],
  );
  const rows = table.find('tbody tr');
  assert.is(rows.length, 1, 'the event records are folded below');
  const error = rows.eq(0);
  assert.is(error.find('td').eq(0).find('small').text(), '09:41:07.125');
  assert.is(error.find('td').eq(0).find('.b').text(), 'ERROR');
  assert.is(error.find('td').eq(1).text(), 'request');
  assert.ok(error.hasClass('log-error'));
  assert.equal(JSON.parse(error.find('pre.ctx').text()).exception.status, 404);
  assert.ok(error.find('pre.ctx').text().includes('\n  "exception": {'), 'pretty-printed');
  assert.is($('details.events-folded tbody tr').eq(0).find('pre').length, 0, 'no context block for an empty context');
});

test('when a token is given, then the page links to /_profiler/<token>; without, no link', () => {
  assert.is(load(renderErrorPage(notFoundErrorPage()))('a[href="/_profiler/a1b2c3"]').length, 1);
  assert.is(load(renderErrorPage(notFoundErrorPage({ token: null })))('a[href*="/_profiler"]').length, 0);
});

test("when frames are the app's own, then they show a code excerpt with the line highlighted; vendor frames fold", () => {
  const exception = serverErrorProfile().collectors.exception!;
  const $ = load(
    renderErrorPage({ ...notFoundErrorPage(), status: 500, statusText: 'Internal Server Error', exception }),
  );
  const app = $('.exc li.frame-app');
  assert.is(app.length, 2);
  assert.is(app.eq(0).find('.fn').text(), 'checkStock');
  assert.ok(app.eq(0).text().includes('src/inventory.ts line 10'));
  assert.is(app.eq(0).find('pre.code > span').length, 11);
  assert.is(
    app.eq(0).find('pre.code .hl').text(),
    '10   line 10 <code> && "quoted"\n',
    'the number, a space, the line as written, a line feed',
  );
  assert.is($('.exc details li').length, 2, 'vendor and internal frames are inside <details>');
  assert.is($('.exc details[open]').length, 0, 'closed when app frames exist');
});

test('when an exception has no app frame, then its vendor/internal frames stay folded too', () => {
  const $ = load(renderErrorPage(notFoundErrorPage()));
  assert.is($('.exc').eq(0).find('details').length, 1);
  assert.is($('details[open]').length, 0);
});

test('should fold each stack-trace text into a closed <details>, its [n/total] heading left in view', () => {
  const $ = load(renderErrorPage(notFoundErrorPage()));
  assert.equal(
    texts($, 'section h3').filter((t) => t.startsWith('[')),
    ['[2/2] NotFoundHttpError', '[1/2] ResourceNotFoundError'],
  );
  const folded = $('details.trace-text');
  assert.is(folded.length, 2);
  assert.is(folded.filter('[open]').length, 0);
  assert.is(folded.find('pre.trace').length, 2);
  assert.ok(folded.eq(1).find('pre.trace').text().startsWith('ResourceNotFoundError:\n'));
});

test('should stay small for a 404 with 40 log records (its speed is measured by bench:stages, not here)', () => {
  const html = renderErrorPage(notFoundErrorPage({ log: longLog(40) }));
  assert.ok(html.length < 25_000, `${html.length} bytes`);
});

test('should be pure: the same data renders the same bytes', () => {
  assert.is(
    renderErrorPage(notFoundErrorPage({ log: longLog(12) })),
    renderErrorPage(notFoundErrorPage({ log: longLog(12) })),
  );
  assert.ok(T0 > 0);
});

test.run();

// ---

const prod = suite('renderProductionErrorPage');

prod('should say Oops and the status, and nothing else of the error', () => {
  const $ = load(renderProductionErrorPage(404, 'Not Found'));
  const text = $.root().text();
  assert.ok(text.includes('Oops! An Error Occurred'));
  assert.ok(text.includes('The server returned a "404 Not Found".'));
  assert.not.match(text, /robots|Exception|Error \d/);
  assert.is($('a, script').length, 0);
});

prod.run();
