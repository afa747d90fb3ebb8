import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILT_IN_PANEL_NAMES } from '../../panels/registry.js';
import { renderErrorPage } from '../../render/error-page.js';
import { renderProfilePage } from '../../web-profiler/views/profile-page.js';
import { renderSearchPage } from '../../web-profiler/views/search-page.js';
import { injectToolbar, renderToolbar } from '../../web-profiler/views/toolbar.js';
import { hostileProfile, notFoundErrorPage, PAYLOADS } from './fixtures.js';
import { assertNoInjection } from './html-assertions.js';

const P = PAYLOADS.join(' ');
const test = suite('reflected values are escaped (XSS payloads in every field)');

test('when payloads are in the URL, method, messages, classes, frames and log context, then the error page injects nothing and shows them as text', () => {
  const profile = hostileProfile();
  const html = renderErrorPage(
    notFoundErrorPage({
      method: P,
      url: profile.url,
      exception: profile.collectors.exception!,
      log: profile.collectors.log.records,
      token: P,
    }),
  );
  assertNoInjection(html, 'error page');
  const $ = load(html);
  assert.ok($('title').text().startsWith(P));
  assert.ok($('header').text().includes(P));
  assert.ok($('pre.ctx').text().includes(JSON.stringify(P)));
  assert.ok($('pre.code').text().includes(P));
});

for (const panel of BUILT_IN_PANEL_NAMES) {
  test(`when payloads are in every field of the profile, then the ${panel} panel injects nothing`, () => {
    const html = renderProfilePage(hostileProfile(), { panel });
    assertNoInjection(html, panel);
    assert.ok(load(html)('main').text().includes(PAYLOADS[0]), `${panel} shows the payload as text`);
  });
}

test('when the profile URL or a redirect is javascript:, then it is shown as text, not linked', () => {
  const $ = load(renderProfilePage(hostileProfile(), { panel: 'router' }));
  assert.is($('header.summary h1 a').length, 0);
  assert.ok($('header.summary h1').text().startsWith('javascript:alert(1)//'));
  assert.ok($('main').text().includes('Redirected (trailing slash) to javascript:alert(1)//'));
});

test('when payloads are in the search rows and the query, then the search page injects nothing', () => {
  const profile = hostileProfile();
  const row = { token: P, status: 404, ip: P, method: P, url: profile.url, time: profile.time, duration: 1 };
  const html = renderSearchPage([row], { limit: 10, ip: P, method: P, status: P, url: P, token: P });
  assertNoInjection(html, 'search page');
  const $ = load(html);
  assert.is($('input[name=ip]').attr('value'), P);
  for (const href of $('tbody a')
    .map((_, a) => $(a).attr('href'))
    .get())
    assert.ok(href.startsWith('/_profiler/'), href);
});

test('when payloads are in the toolbar data, then the injected toolbar injects nothing', () => {
  const toolbar = renderToolbar({
    token: P,
    status: 200,
    route: P,
    controller: P,
    duration: 1,
    log: { ERROR: 1, WARNING: 2 },
    method: P,
    exceptions: [P, P],
    security: { decision: 'denied', rule: P },
    listeners: 3,
  });
  assertNoInjection(injectToolbar('<html><body></body></html>', toolbar), 'toolbar');
  assert.ok(load(toolbar)('#appkernel-toolbar').text().includes(P));
});

test.run();
