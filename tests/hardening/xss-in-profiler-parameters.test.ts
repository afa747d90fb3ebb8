import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeParameter, toMatchPath } from '../../core/routing/match-path.js';
import { fetchRawPath } from '../helpers/serve.js';
import {
  asText,
  assertNothingInjected,
  assertNulRefused,
  hostileGet,
  pageText,
  rawPathSafe,
  serveXssApp,
  xssCases,
  type XssServer,
} from './xss-harness.js';

const test = suite("XSS payloads in the profiler's own parameters (token, panel, search filters) are escaped");
let t: XssServer;
let token: string;
const baseline: { token?: string; panel?: string; search?: string } = {};

const FILTERS = ['ip', 'method', 'status', 'url', 'token', 'since', 'until', 'limit'];
const searchQuery = (value: string) => FILTERS.map((name) => `${name}=${encodeURIComponent(value)}`).join('&');

test.before(async () => {
  t = await serveXssApp();
  token = (await hostileGet(t, '/page')).token;
  // Read once, so that it is stored: a read that waits for a profile still being built has other stack frames.
  await fetchRawPath(t.base, `/_profiler/${token}.json`);
  baseline.token = (await fetchRawPath(t.base, '/_profiler/harmless')).body;
  baseline.panel = (await fetchRawPath(t.base, `/_profiler/${token}?panel=harmless`)).body;
  baseline.search = (await fetchRawPath(t.base, `/_profiler/search?${searchQuery('harmless')}`)).body;
});
test.after(async () => {
  await t.remove();
});

xssCases('xss-in-profiler-parameters').forEach(({ item: payload, index }) => {
  const label = `payload #${index} ${JSON.stringify(payload).slice(0, 50)}`;

  test(`when ${label} is a profile token, then the "not found" page injects nothing`, async () => {
    const path = `/_profiler/${rawPathSafe(payload)}`;
    if (payload.includes('\0')) return assertNulRefused(t, path);
    const r = await fetchRawPath(t.base, path);
    assert.is(r.status, 404);
    assertNothingInjected(r.body, baseline.token!, 'token page');
    const shown = asText(decodeParameter(toMatchPath(rawPathSafe(payload))));
    assert.ok(pageText(r.body).includes(`Token "${shown}" not found.`), pageText(r.body).slice(0, 300));
  });

  test(`when ${label} is a panel name, then the "not available" page injects nothing`, async () => {
    const path = `/_profiler/${token}?panel=${encodeURIComponent(payload)}`;
    if (payload.includes('\0')) return assertNulRefused(t, path);
    const r = await fetchRawPath(t.base, path);
    assert.is(r.status, 404);
    assertNothingInjected(r.body, baseline.panel!, 'panel page');
    assert.ok(pageText(r.body).includes(`Panel "${asText(payload)}" is not available for token "${token}".`));
  });

  test(`when ${label} is in every search filter, then the search page injects nothing and shows the filters as text`, async () => {
    const path = `/_profiler/search?${searchQuery(payload)}`;
    if (payload.includes('\0')) return assertNulRefused(t, path);
    const r = await fetchRawPath(t.base, path);
    assert.is(r.status, 400, 'a payload is no status or date: not applied, and said');
    assertNothingInjected(r.body, baseline.search!, 'search page');
    assert.is(
      load(r.body)('input[name=ip]').attr('value'),
      asText(payload).trim(),
      'the ip filter is shown back as the value of its field',
    );
  });
});

test.run();
