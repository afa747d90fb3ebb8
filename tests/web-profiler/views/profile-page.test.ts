import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILT_IN_PANEL_NAMES } from '../../../panels/registry.js';
import { renderProfilePage } from '../../../web-profiler/views/profile-page.js';
import {
  NOT_FOUND_MESSAGE,
  notFoundProfile,
  okProfile,
  ROBOTS_URL,
  ROUTING_MESSAGE,
  serverErrorProfile,
} from '../../render/fixtures.js';
import { texts, textIndex } from '../../render/html-assertions.js';

const test = suite('renderProfilePage');

test('should show the summary: URL, method, status, IP, profiled-on date and UTC time, token', () => {
  const $ = load(renderProfilePage(notFoundProfile(), { panel: 'request' }));
  const summary = $('header.summary');
  assert.is(summary.find('h1').text(), ROBOTS_URL);
  const fields = Object.fromEntries(
    summary
      .find('dl > div')
      .map((_, d) => [[$(d).find('dt').text(), $(d).find('dd').text()]])
      .get(),
  );
  assert.equal(fields, {
    Method: 'GET',
    Status: '404 Not Found',
    IP: '127.0.0.1',
    'Profiled on': '2024-05-14 09:41:07 UTC',
    Duration: '3.4 ms',
    Token: 'a1b2c3',
  });
  assert.is(summary.find('a[href="/_profiler/search?ip=127.0.0.1&limit=10"]').length, 1);
});

test('should list every panel in the menu, linking ?panel=<name>&type=request, the chosen one marked', () => {
  const $ = load(renderProfilePage(notFoundProfile(), { panel: 'router' }));
  const hrefs = $('ul.menu a')
    .map((_, a) => $(a).attr('href'))
    .get();
  assert.equal(
    hrefs,
    BUILT_IN_PANEL_NAMES.map((p) => `/_profiler/a1b2c3?panel=${p}&type=request`),
  );
  assert.equal(
    $('ul.menu a')
      .map((_, a) => $(a).children('span').first().text())
      .get(),
    [
      'Request / Response',
      'Performance',
      'Exception',
      'Logs',
      'Events',
      'Routing',
      'Security',
      'HTTP Client',
      'Database',
      'Dumps',
      'Configuration',
    ],
  );
  assert.is($('ul.menu a.on').attr('href'), '/_profiler/a1b2c3?panel=router&type=request');
  assert.is($('ul.menu a[aria-current=page]').length, 1);
});

test('should count exceptions, log errors and warnings in the menu', () => {
  const notFound = load(renderProfilePage(notFoundProfile(), { panel: 'request' }));
  assert.is(notFound('ul.menu a[href*="panel=exception"] .b.err').text(), '2');
  assert.is(notFound('ul.menu a[href*="panel=log"] .b.err').text(), '1');
  const ok = load(renderProfilePage(okProfile(), { panel: 'request' }));
  assert.is(ok('ul.menu a[href*="panel=exception"] .b').length, 0);
  assert.is(ok('ul.menu a[href*="panel=log"] .b.warn').text(), '1');
});

for (const panel of BUILT_IN_PANEL_NAMES) {
  test(`when panel=${panel}, then it renders a page with that panel for each fixture profile`, () => {
    for (const profile of [notFoundProfile(), okProfile(), serverErrorProfile()]) {
      const html = renderProfilePage(profile, { panel });
      const $ = load(html);
      assert.ok(html.startsWith('<!DOCTYPE html>'));
      assert.ok($('main h2').length > 0, `${panel} of ${profile.token} has a heading`);
    }
  });
}

test('when panel=exception for a 404, then classes, messages, frames, the log table and [2/2] before [1/2]', () => {
  const html = renderProfilePage(notFoundProfile(), { panel: 'exception' });
  const $ = load(html);
  assert.equal(texts($, 'main .exc h3'), ['NotFoundHttpError', 'ResourceNotFoundError']);
  assert.equal(texts($, 'main .exc .msg'), [NOT_FOUND_MESSAGE, ROUTING_MESSAGE]);
  assert.ok($('main').text().includes('router-listener.ts'));
  assert.equal(texts($, 'main table.log th'), ['Level', 'Channel', 'Message']);
  assert.ok(textIndex(html, '[2/2] NotFoundHttpError') < textIndex(html, '[1/2] ResourceNotFoundError'));
  assert.ok(textIndex(html, '[1/2]') > 0);
});

test('when panel=exception and nothing was thrown, then it says so', () => {
  const $ = load(renderProfilePage(okProfile(), { panel: 'exception' }));
  assert.is($('main .empty').text(), 'No exception was thrown and caught during the request.');
  assert.is($('main table.log').length, 0);
});

test('when panel=request, then request and response fields, headers, query, cookies and the redacted note', () => {
  const $ = load(renderProfilePage(okProfile(), { panel: 'request' }));
  const main = $('main').text();
  for (const expected of [
    'hello',
    'world',
    'user-agent',
    'curl/8.5.0',
    'lang',
    'session',
    'No body.',
    '200',
    'text/html; charset=UTF-8',
    'cache-control',
  ]) {
    assert.ok(main.includes(expected), expected);
  }
  assert.ok(main.includes('Redacted before storage: header authorization, header cookie, cookie session.'));
  const body = { ...okProfile() };
  body.collectors.request.body = { size: 4096, contentType: 'application/json', text: '{"a":1', truncated: true };
  const $$ = load(renderProfilePage(body, { panel: 'request' }));
  assert.ok($$('main').text().includes('4.0 KB, application/json truncated'));
});

test('when the profile says which server served it (a shared store), then the request panel shows it; otherwise no such row', () => {
  const $ = load(renderProfilePage({ ...okProfile(), instance: 'web-2:8001' }, { panel: 'request' }));
  const row = $('main dt, main th').filter((_, el) => $(el).text() === 'Served by');
  assert.is(row.length, 1);
  assert.ok($('main').text().includes('web-2:8001'));
  assert.not.ok(
    load(renderProfilePage(okProfile(), { panel: 'request' }))('main')
      .text()
      .includes('Served by'),
  );
});

test('when panel=request, then JSON bodies both ways are pretty-printed, a cut one shown as it was, and the response body previewed', () => {
  const profile = okProfile();
  profile.collectors.request.body = {
    size: 17,
    contentType: 'application/json',
    text: '{"a":1,"b":[true]}',
    truncated: false,
  };
  profile.collectors.request.response.body = {
    size: 25,
    contentType: 'application/json',
    text: '{"ok":true,"items":[1,2]}',
    truncated: false,
  };
  const $ = load(renderProfilePage(profile, { panel: 'request' }));
  const bodies = $('main pre.body')
    .map((_, pre) => $(pre).text())
    .get();
  assert.equal(bodies, [
    '{\n  "a": 1,\n  "b": [\n    true\n  ]\n}',
    '{\n  "ok": true,\n  "items": [\n    1,\n    2\n  ]\n}',
  ]);
  assert.is($('main h3').last().text(), 'Response body');
  profile.collectors.request.response.body = {
    size: 40_000,
    contentType: 'text/plain',
    text: 'x'.repeat(16),
    truncated: true,
  };
  const cut = load(renderProfilePage(profile, { panel: 'request' }));
  assert.is(cut('main pre.body').last().text(), 'x'.repeat(16));
  assert.ok(cut('main').text().includes('39.1 KB, text/plain truncated: the first 16 B shown'), cut('main').text());
});

test('when panel=request with a cut body that is not UTF-8, then it says the first 16 KB are shown, not the length of their U+FFFDs', () => {
  const profile = okProfile();
  profile.collectors.request.body = {
    size: 40_000,
    contentType: 'application/octet-stream',
    text: '\ufffd'.repeat(16 * 1024),
    truncated: true,
  };
  const $ = load(renderProfilePage(profile, { panel: 'request' }));
  assert.ok(
    $('main').text().includes('39.1 KB, application/octet-stream truncated: the first 16.0 KB shown'),
    $('main p').first().text(),
  );
});

test('when panel=request with a binary body, then it is folded behind a note saying so; a text body is shown as it is', () => {
  const profile = okProfile();
  profile.collectors.request.body = {
    size: 6,
    contentType: 'application/octet-stream',
    text: '\u007fELF\u0000\ufffd',
    truncated: false,
  };
  const $ = load(renderProfilePage(profile, { panel: 'request' }));
  const folded = $('h3:contains("Body") + .card details');
  assert.is(folded.find('summary').text(), 'Binary: bytes that are not UTF-8 text. Show as text');
  assert.is(folded.attr('open'), undefined, 'folded');
  assert.is(folded.find('pre').text(), '\u007fELF\ufffd', 'the text, but for the NUL HTML parsing drops');
  profile.collectors.request.body = { size: 7, contentType: 'text/plain', text: 'caf\u00e9 ok', truncated: false };
  assert.is(load(renderProfilePage(profile, { panel: 'request' }))('h3:contains("Body") + .card details').length, 0);
});

test('when panel=request on a profile without a response body preview (older, or not text), then it says which', () => {
  const older = okProfile();
  delete older.collectors.request.response.body;
  assert.ok(
    load(renderProfilePage(older, { panel: 'request' }))('main')
      .text()
      .includes('Not recorded (this profile predates response body previews).'),
  );
  const binary = okProfile();
  binary.collectors.request.response.body = null;
  assert.ok(
    load(renderProfilePage(binary, { panel: 'request' }))('main')
      .text()
      .includes('No text body to preview'),
  );
});

test('when panel=time, then total duration and one row per phase with a bar, listener calls among them', () => {
  const $ = load(renderProfilePage(okProfile(), { panel: 'time' }));
  assert.ok($('main').text().includes('Total time: 3.4 ms'));
  assert.equal(
    $('main tbody tr.tl-phase td:nth-child(2)')
      .map((_, td) => $(td).text())
      .get(),
    ['routing', 'firewall', 'controller', 'response'],
  );
  assert.is($('main tr.tl-phase .bar').length, 4);
  assert.match(
    $('main tr.tl-phase .bar').eq(2).attr('style') ?? '',
    /^left:5\.85%;width:81\.87%;background:#[0-9a-f]{6}$/,
  );
  assert.is(
    $('main tbody tr').length,
    4 + okProfile().collectors.events.events.reduce((n, event) => n + event.listeners.length, 0),
  );
});

test('when panel=log&events=1, then the whole table and level filters with counts', () => {
  const $ = load(renderProfilePage(okProfile(), { panel: 'log', query: { events: '1' } }));
  assert.equal(texts($, 'main .filters label'), ['All 6', 'Errors 0', 'Warnings 1', 'Info 2', 'Debug 3']);
  assert.is($('main input#lf-all[checked]').length, 1);
  assert.is($('main table.log tbody tr').length, 6);
  assert.is($('main tr.log-warning').length, 1);
});

test('when panel=log, then the event channel is hidden, said so, and one link shows it', () => {
  const $ = load(renderProfilePage(okProfile(), { panel: 'log' }));
  assert.equal(
    $('main table.log tbody tr td:nth-child(2)')
      .map((_, td) => $(td).text())
      .get(),
    ['request', 'app', 'app'],
  );
  assert.equal(texts($, 'main .filters label'), ['All 3', 'Errors 0', 'Warnings 1', 'Info 2', 'Debug 0']);
  assert.ok($('main .events-hidden').text().startsWith('3 event records (one per listener call) hidden.'));
  assert.is($('main .events-hidden a').attr('href'), '/_profiler/c0ffee?panel=log&type=request&events=1');
});

test('when panel=log, then a link per channel with its count, the current one marked; channel=<name> shows that channel only', () => {
  const $ = load(renderProfilePage(okProfile(), { panel: 'log' }));
  const links = $('main nav.channels a')
    .map((_, a) => [[$(a).text(), $(a).attr('href')]])
    .get();
  assert.equal(links, [
    ['All channels but event 3', '/_profiler/c0ffee?panel=log&type=request'],
    ['All channels 6', '/_profiler/c0ffee?panel=log&type=request&events=1'],
    ['app 2', '/_profiler/c0ffee?panel=log&type=request&channel=app'],
    ['event 3', '/_profiler/c0ffee?panel=log&type=request&channel=event'],
    ['request 1', '/_profiler/c0ffee?panel=log&type=request&channel=request'],
  ]);
  assert.is($('main nav.channels a.on').text(), 'All channels but event 3');
  const event = load(renderProfilePage(okProfile(), { panel: 'log', query: { channel: 'event' } }));
  assert.equal(
    event('main table.log tbody tr td:nth-child(2)')
      .map((_, td) => event(td).text())
      .get(),
    ['event', 'event', 'event'],
  );
  assert.is(event('main nav.channels a.on').text(), 'event 3');
  assert.is(event('main .events-hidden').length, 0);
  const none = load(renderProfilePage(okProfile(), { panel: 'log', query: { channel: 'nope' } }));
  assert.is(none('main .empty').text(), 'No log messages.');
});

test('when panel=log, then times show milliseconds and each context is one folded line that opens on the pretty JSON', () => {
  const $ = load(renderProfilePage(okProfile(), { panel: 'log' }));
  assert.match($('main table.log tbody tr').first().find('td small').text(), /^\d\d:\d\d:\d\d\.\d{3}$/);
  const context = $('main table.log tbody tr').eq(1).find('details.ctx');
  assert.is(context.attr('open'), undefined, 'folded');
  assert.is(context.find('summary').text(), '{"name":"world"}');
  assert.is(context.find('pre.ctx').text(), '{\n  "name": "world"\n}');
  assert.is($('main table.log tbody tr').eq(2).find('details').length, 0, 'an empty context shows nothing');
});

test('when panel=router for a matched route, then its definition: path, methods, requirements, defaults, controller, then the parameters', () => {
  const profile = okProfile();
  profile.collectors.router.definition = {
    path: '/hello/{name}',
    methods: ['GET'],
    requirements: { name: '[a-z]+' },
    defaults: { name: 'world' },
    controller: 'hello',
  };
  const $ = load(renderProfilePage(profile, { panel: 'router' }));
  const rows = $('main .route-definition > table > tbody > tr');
  assert.equal(rows.map((_, tr) => $(tr).children('th').text()).get(), [
    'Path',
    'Methods',
    'Requirements',
    'Defaults',
    'Controller',
  ]);
  assert.is(rows.eq(0).children('td').text(), '/hello/{name}');
  assert.is(rows.eq(1).children('td').text(), 'GET');
  assert.is(rows.eq(2).find('td table th').text() + '=' + rows.eq(2).find('td table td').text(), 'name=[a-z]+');
  assert.is(rows.eq(3).find('td table td').text(), 'world');
  profile.collectors.router.definition = {
    ...profile.collectors.router.definition,
    methods: [],
    requirements: {},
    defaults: {},
  };
  const any = load(renderProfilePage(profile, { panel: 'router' }));
  assert.is(any('main .route-definition > table > tbody > tr').eq(1).children('td').text(), 'ANY');
  assert.ok(any('main').text().includes('Parameters'));
});

test('when panel=events, then listeners in call order with durations and the stopped-propagation mark', () => {
  const $ = load(renderProfilePage(notFoundProfile(), { panel: 'events' }));
  assert.equal(
    texts($, 'main h3').map((t) => t.split(' ')[0]),
    ['kernel.request', 'kernel.exception'],
  );
  assert.equal(
    $('main .card')
      .eq(0)
      .find('tbody td:nth-child(2)')
      .map((_, td) => $(td).text())
      .get(),
    ['DebugHeadersListener.onKernelRequest', 'RouterListener.onKernelRequest'],
  );
  assert.is(
    $('main .card').eq(1).find('td:nth-child(2)').text(),
    'ErrorListener.onKernelException stopped propagation',
  );
});

test('when panel=router, then the matched route and its params, or the explain table for a 404', () => {
  const ok = load(renderProfilePage(okProfile(), { panel: 'router' }));
  assert.ok(ok('main').text().includes('Matched route hello'));
  assert.ok(ok('main table.kv').text().includes('name'));
  const notFound = load(renderProfilePage(notFoundProfile(), { panel: 'router' }));
  assert.equal(texts(notFound, 'main thead th'), ['Route', 'Path', 'Methods', 'Verdict', 'Detail']);
  assert.equal(
    notFound('main tbody td:first-child')
      .map((_, td) => notFound(td).text())
      .get(),
    ['home', 'hello', 'contact'],
  );
  assert.ok(ok('main').text().includes("The route's definition was not recorded."), 'an older profile says so');
  const redirect = okProfile();
  redirect.collectors.router = {
    route: null,
    params: {},
    redirect: 'http://127.0.0.1:8000/hello/world',
    explain: null,
  };
  assert.is(
    load(renderProfilePage(redirect, { panel: 'router' }))('main a[href="http://127.0.0.1:8000/hello/world"]').length,
    1,
  );
});

test('when panel=security, then the decision, rule and message', () => {
  const $ = load(renderProfilePage(okProfile(), { panel: 'security' }));
  assert.equal(texts($, 'main td'), ['Allowed', '^/hello', 'Anyone may say hello.']);
  const none = load(renderProfilePage(notFoundProfile(), { panel: 'security' }));
  assert.equal(texts(none, 'main td'), []);
  assert.equal(
    texts(none, 'main .card p.empty'),
    ['No access rule applied to the request.'],
    'the sentence the terminal prints',
  );
});

test.run();
