import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LogRecord } from '../../core/profiler/profile.js';
import { renderErrorPage } from '../../render/error-page.js';
import { renderExceptionPanel } from '../../render/html/panels/exception-panel.js';
import { notFoundErrorPage, serverErrorProfile, T0 } from './fixtures.js';

const test = suite(
  "error page and exception panel: the app's records and the framework's warnings and errors in view, the event records folded behind their count",
);

const record = (i: number, level: LogRecord['level'], channel: string, message: string): LogRecord => ({
  time: T0 + i,
  level,
  channel,
  message,
  context: {},
});

/** A failed request as a trial app logs it: 6 listener calls, one app record, one framework warning, the uncaught error. */
function trialLog(): LogRecord[] {
  return [
    record(0, 'INFO', 'request', 'Matched route "items".'),
    record(1, 'DEBUG', 'event', 'Notified event "kernel.request" to listener "RouterListener::onKernelRequest".'),
    record(2, 'DEBUG', 'event', 'Notified event "kernel.request" to listener "FirewallListener::onKernelRequest".'),
    record(3, 'DEBUG', 'app', 'Loading the item list'),
    record(
      4,
      'DEBUG',
      'event',
      'Notified event "kernel.controller" to listener "ControllerListener::onKernelController".',
    ),
    record(5, 'WARNING', 'security', 'No rule matched: the firewall lets the request through.'),
    record(6, 'CRITICAL', 'request', 'Uncaught exception Error: "boom"'),
    record(7, 'DEBUG', 'event', 'Notified event "kernel.exception" to listener "ErrorListener::onKernelException".'),
    record(
      8,
      'DEBUG',
      'event',
      'Listener "ErrorListener::onKernelException" stopped propagation of the event "kernel.exception".',
    ),
    record(9, 'DEBUG', 'event', 'Notified event "kernel.response" to listener "ProfilerListener::onKernelResponse".'),
  ];
}

const messagesOf = ($: ReturnType<typeof load>, rows: string) =>
  $(rows)
    .map((_, tr) => $(tr).find('td').eq(2).text())
    .get();

test("when the error page is rendered, then its log table holds the app's records and the framework's others, in order, and no event record", () => {
  const $ = load(renderErrorPage({ ...notFoundErrorPage(), log: trialLog() }));
  assert.equal(messagesOf($, 'section > .card > table.log > tbody > tr'), [
    'Matched route "items".',
    'Loading the item list',
    'No rule matched: the firewall lets the request through.',
    'Uncaught exception Error: "boom"',
  ]);
});

test('when the error page is rendered, then the 6 event records wait in a closed <details> that says how many', () => {
  const $ = load(renderErrorPage({ ...notFoundErrorPage(), log: trialLog() }));
  const fold = $('details.events-folded');
  assert.is(fold.length, 1);
  assert.is(fold.attr('open'), undefined, 'closed');
  assert.ok(fold.children('summary').text().startsWith('6 event records'), fold.children('summary').text());
  assert.is(fold.find('tbody tr').length, 6);
  assert.ok(
    fold
      .find('tbody tr')
      .toArray()
      .every((tr) => $(tr).find('td').eq(1).text() === 'event'),
  );
});

test("when an event record is a warning, then it stays in view: only the event channel's DEBUG records fold", () => {
  const log = [...trialLog(), record(10, 'WARNING', 'event', 'A listener took 2 s.')];
  const $ = load(renderErrorPage({ ...notFoundErrorPage(), log }));
  assert.ok(messagesOf($, 'section > .card > table.log > tbody > tr').includes('A listener took 2 s.'));
});

test('when the log holds no event record, then there is no fold', () => {
  const $ = load(renderErrorPage(notFoundErrorPage({ log: [record(0, 'INFO', 'app', 'hello')] })));
  assert.is($('.events-folded').length, 0);
  assert.is($('table.log tbody tr').length, 1);
});

test('when the exception panel is rendered, then it lists the same few records and links to the log panel for the event records and the whole log', () => {
  const profile = serverErrorProfile();
  profile.collectors.log = { records: trialLog(), errors: 1, warnings: 1 };
  const $ = load(renderExceptionPanel(profile));
  assert.is($('table.log tbody tr').length, 4, 'the event records are not repeated here');
  assert.is($('.events-folded a').text(), '6 event records');
  assert.is($('.events-folded a').attr('href'), '/_profiler/deadbe?panel=log&type=request&events=1');
  assert.is($('a.log-panel').attr('href'), '/_profiler/deadbe?panel=log&type=request');
  assert.is($('details.events-folded').length, 0);
});

test.run();
