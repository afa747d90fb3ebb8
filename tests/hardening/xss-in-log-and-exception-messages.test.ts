import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  asText,
  assertNothingInjected,
  assertProfileClean,
  hostileGet,
  pageText,
  profilePages,
  serveXssApp,
  xssCases,
  type ProfilePages,
  type XssServer,
} from './xss-harness.js';

const test = suite('XSS payloads in log messages, log context and exception messages and classes are escaped');
let t: XssServer;
let baselinePage: string;
let baseline: ProfilePages;

test.before(async () => {
  t = await serveXssApp();
  const r = await hostileGet(t, '/fail/harmless');
  assert.is(r.status, 500);
  baselinePage = r.body;
  baseline = await profilePages(t.base, r.token);
});
test.after(async () => {
  await t.remove();
});

xssCases('xss-in-log-and-exception-messages').forEach(({ item: payload, index }) => {
  test(`when the controller logs and throws payload #${index} ${JSON.stringify(payload).slice(0, 60)}, then the error page, its toolbar and every panel inject nothing`, async () => {
    const r = await hostileGet(t, `/fail/${index}`);
    assert.is(r.status, 500);
    assertNothingInjected(r.body, baselinePage, 'debug error page');
    assert.ok(pageText(r.body).includes(asText(payload)), 'the error page shows the payload as text');
    const toolbar = load(r.body)('#appkernel-toolbar .ak-s[data-panel=exception]');
    assert.ok(
      toolbar.text().includes(asText(payload).trim()),
      "the toolbar's exception section shows the thrown class as text",
    );
    const pages = await profilePages(t.base, r.token);
    assertProfileClean(pages, baseline, `payload #${index}`);
    assert.ok(
      pageText(pages.panels.get('exception')!).includes(asText(payload)),
      'the exception panel shows the payload as text',
    );
    assert.ok(pageText(pages.panels.get('log')!).includes(asText(payload)), 'the log panel shows the payload as text');
  });
});

test.run();
