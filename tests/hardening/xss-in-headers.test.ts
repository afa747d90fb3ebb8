import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchRawPath } from '../helpers/serve.js';
import {
  asText,
  assertNothingInjected,
  assertProfileClean,
  headerSafe,
  hostileGet,
  pageText,
  profilePages,
  serveXssApp,
  xssCases,
  type ProfilePages,
  type XssServer,
} from './xss-harness.js';

const test = suite(
  'XSS payloads in Referer, User-Agent and other headers are escaped; in the Host they are refused before the kernel',
);
let t: XssServer;
let baselinePage: string;
let baseline: ProfilePages;
/** a Host the server answers to, other than the one of its URL */
let allowedHost: string;

const headers = (value: string, host: string) => ({
  referer: value,
  'user-agent': value,
  'x-payload': value,
  'accept-language': value,
  host,
});

test.before(async () => {
  t = await serveXssApp();
  allowedHost = `localhost:${new URL(t.base).port}`;
  const r = await hostileGet(t, '/page', headers('harmless', allowedHost));
  baselinePage = r.body;
  baseline = await profilePages(t.base, r.token);
});
test.after(async () => {
  await t.remove();
});

xssCases('xss-in-headers').forEach(({ item: payload, index }) => {
  test(`when payload #${index} ${JSON.stringify(payload).slice(0, 50)} is in the headers, then the page, its toolbar and every panel inject nothing`, async () => {
    const value = headerSafe(payload);
    const r = await hostileGet(t, '/page', headers(value, allowedHost));
    assert.is(r.status, 200);
    assertNothingInjected(r.body, baselinePage, 'page with toolbar');
    const pages = await profilePages(t.base, r.token);
    assertProfileClean(pages, baseline, `payload #${index}`);
    const request = pageText(pages.panels.get('request')!);
    assert.ok(request.includes(asText(value)), 'the request panel shows the header values as text');
    assert.ok(request.includes(`http://${allowedHost}/page`), 'the request panel shows the URL built on the Host');
  });

  test(`when payload #${index} ${JSON.stringify(payload).slice(0, 50)} is the Host, then it is refused in plain text (nosniff), unprofiled`, async () => {
    const r = await fetchRawPath(t.base, '/page', headers(headerSafe(payload), headerSafe(payload)));
    assert.ok(r.status === 400 || r.status === 421, `answered ${r.status}`);
    assert.match(r.headers['content-type'], /^text\/plain/);
    assert.is(r.headers['x-content-type-options'], 'nosniff');
    assert.is(r.headers['x-debug-token'], undefined);
  });
});

test.run();
