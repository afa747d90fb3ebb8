import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeParameter, toMatchPath } from '../../core/routing/match-path.js';
import {
  asText,
  assertNothingInjected,
  assertNulRefused,
  assertProfileClean,
  harmlessBaseline,
  headerSafe,
  hostileGet,
  pageText,
  profilePages,
  rawPathSafe,
  serveXssApp,
  xssCases,
  type ProfilePages,
  type XssServer,
} from './xss-harness.js';

const test = suite('XSS payloads in the request path, a route parameter and the Referer of a 404 are escaped');
let t: XssServer;
const baseline: { notFound?: string; notFoundProfile?: ProfilePages; param?: string; paramProfile?: ProfilePages } = {};

test.before(async () => {
  t = await serveXssApp();
  ({ page: baseline.notFound, profile: baseline.notFoundProfile } = await harmlessBaseline(
    t,
    '/nowhere/harmless',
    404,
    { referer: 'harmless' },
  ));
  ({ page: baseline.param, profile: baseline.paramProfile } = await harmlessBaseline(t, '/param/harmless', 200));
});
test.after(async () => {
  await t.remove();
});

xssCases('xss-in-path-and-route-parameters').forEach(({ item: payload, index }) => {
  const label = `payload #${index} ${JSON.stringify(payload).slice(0, 50)}`;

  test(`when ${label} is the path of a 404 and its Referer, then the error page and every panel inject nothing`, async () => {
    const path = `/nowhere/${rawPathSafe(payload)}`;
    if (payload.includes('\0')) return assertNulRefused(t, path);
    const r = await hostileGet(t, path, { referer: headerSafe(payload) });
    assert.is(r.status, 404);
    assertNothingInjected(r.body, baseline.notFound!, '404 page');
    assert.ok(
      pageText(r.body).includes(`/nowhere/${rawPathSafe(payload)}" (from "${headerSafe(payload)}")`),
      'the 404 message shows path and referer as text',
    );
    assertProfileClean(await profilePages(t.base, r.token), baseline.notFoundProfile!, label);
  });

  test(`when ${label} is a route parameter, then the page, its toolbar and every panel inject nothing`, async () => {
    const path = `/param/${rawPathSafe(payload)}`;
    if (payload.includes('\0')) return assertNulRefused(t, path);
    const r = await hostileGet(t, path);
    assert.is(r.status, 200);
    assertNothingInjected(r.body, baseline.param!, 'page with toolbar');
    const pages = await profilePages(t.base, r.token);
    assertProfileClean(pages, baseline.paramProfile!, label);
    const value = asText(decodeParameter(toMatchPath(rawPathSafe(payload))));
    assert.ok(pageText(pages.panels.get('router')!).includes(value), 'the routing panel shows the parameter as text');
    assert.ok(pageText(pages.panels.get('request')!).includes(value), 'the request panel shows the parameter as text');
  });
});

test.run();
