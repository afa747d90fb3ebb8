import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  asText, assertNothingInjected, assertProfileClean, headerSafe, hostileGet, pageText, profilePages, serveXssApp, XSS_PAYLOADS,
  type ProfilePages, type XssServer,
} from './xss-harness.js';

const test = suite('XSS payloads in Referer, User-Agent, Host and other headers are escaped');
let t: XssServer;
let baselinePage: string;
let baseline: ProfilePages;

const headers = (value: string, host: string) => ({
  referer: value, 'user-agent': value, 'x-payload': value, 'accept-language': value, host,
});

test.before(async () => {
  t = await serveXssApp();
  const r = await hostileGet(t, '/page', headers('harmless', 'harmless'));
  baselinePage = r.body;
  baseline = await profilePages(t.base, r.token);
});
test.after(async () => { await t.remove(); });

XSS_PAYLOADS.forEach((payload, index) => {
  test(`when payload #${index} ${JSON.stringify(payload).slice(0, 50)} is in the headers and the Host, then the page, its toolbar and every panel inject nothing`, async () => {
    const value = headerSafe(payload);
    const r = await hostileGet(t, '/page', headers(value, value));
    assert.is(r.status, 200);
    assertNothingInjected(r.body, baselinePage, 'page with toolbar');
    const pages = await profilePages(t.base, r.token);
    assertProfileClean(pages, baseline, `payload #${index}`);
    const request = pageText(pages.panels.get('request')!);
    assert.ok(request.includes(asText(value)), 'the request panel shows the header values as text');
    assert.ok(request.includes(`http://${asText(value)}/page`), 'the request panel shows the URL built on the Host as text');
  });
});

test.run();
