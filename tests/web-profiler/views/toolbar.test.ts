import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  injectToolbar,
  injectToolbarAndObserver,
  renderToolbar,
  TOOLBAR_OBSERVER,
  type ToolbarSummary,
} from '../../../web-profiler/views/toolbar.js';
import { TOOLBAR_OBSERVER_SCRIPT } from '../../../web-profiler/views/toolbar-observer-script.js';
import { TOOLBAR_SCRIPT } from '../../../web-profiler/views/toolbar-script.js';

const data: ToolbarSummary = {
  token: 'a1b2c3',
  status: 404,
  method: 'GET',
  route: null,
  controller: null,
  duration: 3.456,
  log: { ERROR: 1, DEBUG: 7 },
  exceptions: [],
  security: { decision: 'none', rule: null },
  listeners: 9,
};

const test = suite('renderToolbar');

test('should be #appkernel-toolbar, fixed at the bottom, linking to /_profiler/<token>, with its one static script', () => {
  const $ = load(renderToolbar(data));
  const bar = $('#appkernel-toolbar.appkernel-toolbar');
  assert.is(bar.length, 1);
  assert.match(bar.attr('style') ?? '', /position:fixed;.*bottom:0/);
  assert.ok(bar.find('a[href="/_profiler/a1b2c3"]').length >= 1);
  assert.is($('script').length, 1);
  assert.is($('#appkernel-toolbar > script').text(), TOOLBAR_SCRIPT);
});

test('should show status, method, route, duration in ms and log counts', () => {
  const text = load(renderToolbar({ ...data, status: 200, route: 'hello', log: { ERROR: 2, WARNING: 1, INFO: 3 } }))(
    '#appkernel-toolbar',
  ).text();
  for (const expected of ['200', 'GET', '@hello', '3.5 ms', '2 errors', '1 warning'])
    assert.ok(text.includes(expected), expected);
  assert.ok(load(renderToolbar(data))('#appkernel-toolbar').text().includes('no route'));
});

test('should have one focusable section per panel, each with details linking to its panel', () => {
  const $ = load(renderToolbar({ ...data, exceptions: ['NotFoundHttpError', 'ResourceNotFoundError'] }));
  const sections = $('.ak-bar > .ak-s');
  assert.equal(sections.map((_, el) => $(el).attr('data-panel')).get(), [
    'request',
    'time',
    'log',
    'exception',
    'security',
    'fetch',
  ]);
  sections.each((_, el) => assert.is($(el).attr('tabindex'), '0'));
  for (const panel of ['request', 'time', 'log', 'exception', 'security']) {
    const details = $(`.ak-s[data-panel=${panel}] > .ak-det`);
    assert.is(details.length, 1, panel);
    assert.is(details.find(`a[href="/_profiler/a1b2c3?panel=${panel}"]`).length, 1, `${panel} links to its panel`);
  }
});

test('should summarise the log by level, errors and warnings as pills, every level in the details', () => {
  const $ = load(renderToolbar({ ...data, log: { DEBUG: 5, INFO: 2, WARNING: 1, ERROR: 1, CRITICAL: 1 } }));
  const log = $('.ak-s[data-panel=log]');
  assert.is(
    log
      .children('.ak-pill')
      .map((_, el) => $(el).text())
      .get()
      .join('|'),
    '2 errors|1 warning',
  );
  assert.equal(
    log
      .find('.ak-det th')
      .map((_, el) => $(el).text())
      .get(),
    ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'],
  );
  assert.equal(
    log
      .find('.ak-det td')
      .map((_, el) => $(el).text())
      .get(),
    ['5', '2', '1', '1', '1'],
  );
});

test('when a page logged only debug and info records, then the log badge says 0, with no pill, and the details still count every level', () => {
  const $ = load(renderToolbar({ ...data, log: { DEBUG: 8, INFO: 1 } }));
  const log = $('.ak-s[data-panel=log]');
  assert.is(log.clone().children('.ak-det').remove().end().text().trim(), 'Logs 0');
  assert.is(log.children('.ak-pill').length, 0);
  assert.equal(
    log
      .find('.ak-det td')
      .map((_, el) => $(el).text())
      .get(),
    ['8', '1'],
  );
});

test('when deprecations were logged, then the badge counts them in a warning pill of their own, after errors and warnings', () => {
  const $ = load(renderToolbar({ ...data, log: { DEBUG: 3, INFO: 2, ERROR: 1 }, deprecations: 2 }));
  const log = $('.ak-s[data-panel=log]');
  assert.equal(
    log
      .children('.ak-pill')
      .map((_, el) => `${$(el).text()} ${$(el).attr('class')}`)
      .get(),
    ['1 error ak-pill ak-err', '2 deprecations ak-pill ak-warn'],
  );
  assert.ok(log.find('.ak-det').text().includes('Deprecations2'));
});

test('should show the exception class and its causes only when something was thrown', () => {
  assert.is(load(renderToolbar(data))('.ak-s[data-panel=exception]').length, 0);
  const $ = load(renderToolbar({ ...data, exceptions: ['NotFoundHttpError', 'ResourceNotFoundError'] }));
  const exception = $('.ak-s[data-panel=exception]');
  assert.is(exception.children('.ak-pill').text(), 'NotFoundHttpError');
  assert.equal(
    exception
      .find('.ak-det td')
      .map((_, el) => $(el).text())
      .get(),
    ['NotFoundHttpError', 'ResourceNotFoundError'],
  );
});

test('should show the security decision and its rule', () => {
  const $ = load(renderToolbar({ ...data, security: { decision: 'denied', rule: 'admin' } }));
  const security = $('.ak-s[data-panel=security]');
  assert.is(security.children('.ak-pill').text(), 'denied');
  assert.ok(security.children('.ak-pill').hasClass('ak-err'));
  assert.ok(security.find('.ak-det').text().includes('admin'));
});

test('should have a hide checkbox with a label in the bar and a tab to show it again, and a hidden, empty fetch list', () => {
  const $ = load(renderToolbar(data));
  const box = $('#appkernel-toolbar > input[type=checkbox]#appkernel-toolbar-hidden');
  assert.is(box.length, 1);
  assert.is($('.ak-bar label[for=appkernel-toolbar-hidden]').length, 1);
  assert.is($('#appkernel-toolbar > label.ak-tab[for=appkernel-toolbar-hidden]').length, 1);
  const fetches = $('.ak-s[data-panel=fetch]');
  assert.ok(fetches.is('[hidden]'));
  assert.is(fetches.find('tbody.ak-fetch-list').children().length, 0);
  assert.equal(
    fetches
      .find('thead th')
      .map((_, el) => $(el).text())
      .get(),
    ['Status', 'Method', 'URL', 'Profile'],
  );
});

test('the script should hold no page data and never write markup', () => {
  assert.not.ok(TOOLBAR_SCRIPT.includes('innerHTML'));
  assert.not.ok(TOOLBAR_SCRIPT.includes('insertAdjacentHTML'));
  assert.not.ok(TOOLBAR_SCRIPT.includes('</'));
  assert.not.ok(TOOLBAR_OBSERVER_SCRIPT.includes('</'));
  assert.not.ok(TOOLBAR_OBSERVER_SCRIPT.includes('innerHTML'));
});

test.run();

// ---

const inject = suite('injectToolbar');

inject('should insert before the last </body>, whatever its case', () => {
  assert.is(injectToolbar('<html><body><p>a</p></BODY></html>', '<T>'), '<html><body><p>a</p><T></BODY></html>');
  assert.is(
    injectToolbar('<body><pre>&lt;/body&gt; </body></pre></body>', '<T>'),
    '<body><pre>&lt;/body&gt; </body></pre><T></body>',
  );
});

inject('when the page has no </body>, then the toolbar is appended', () => {
  assert.is(injectToolbar('<p>fragment</p>', '<T>'), '<p>fragment</p><T>');
  assert.is(injectToolbar('</', '<T>'), '</<T>');
  assert.is(injectToolbar('</bod', '<T>'), '</bod<T>');
  assert.is(injectToolbar('</body', '<T>'), '<T></body');
});

inject(
  'when the page holds characters whose lower case is longer (İ), then the toolbar still goes exactly before </body>',
  () => {
    assert.is(injectToolbar('<body><p>İİİ</p></body></html>', '<T>'), '<body><p>İİİ</p><T></body></html>');
  },
);

inject('should give a page whose toolbar cheerio finds inside body', () => {
  const page = injectToolbar(
    '<!DOCTYPE html><html><head><title>x</title></head><body><h1>Hi</h1></body></html>',
    renderToolbar(data),
  );
  const $ = load(page);
  assert.is($('body > #appkernel-toolbar').length, 1);
  assert.is($('h1').text(), 'Hi');
});

inject(
  "when the page has a <head>, then the observer goes first in it, before the page's scripts, and the toolbar before </body>",
  () => {
    assert.is(
      injectToolbarAndObserver(
        '<html><HEAD lang="en"><script>fetch("/x")</script></head><body><header>h</header></body></html>',
        '<T>',
      ),
      `<html><HEAD lang="en">${TOOLBAR_OBSERVER}<script>fetch("/x")</script></head><body><header>h</header><T></body></html>`,
    );
  },
);

inject('when the page has no <head> (a <header> is not one), then the observer goes just before the toolbar', () => {
  assert.is(
    injectToolbarAndObserver('<body><header>h</header></body>', '<T>'),
    `<body><header>h</header>${TOOLBAR_OBSERVER}<T></body>`,
  );
  assert.is(injectToolbarAndObserver('<p>fragment</p>', '<T>'), `<p>fragment</p>${TOOLBAR_OBSERVER}<T>`);
  assert.is(injectToolbarAndObserver('<body></body><head>', '<T>'), `<body>${TOOLBAR_OBSERVER}<T></body><head>`);
});

inject.run();
