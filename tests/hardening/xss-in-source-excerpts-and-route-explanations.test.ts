import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeParameter, toMatchPath } from '../../core/routing/match-path.js';
import {
  asText,
  assertNothingInjected,
  assertNulRefused,
  assertProfileClean,
  harmlessBaseline,
  hostileGet,
  pageText,
  profilePages,
  rawPathSafe,
  serveXssApp,
  XSS_PAYLOADS,
  xssCases,
  type ProfilePages,
  type XssServer,
} from './xss-harness.js';

const test = suite(
  "XSS payloads in highlighted source excerpts, editor links and a 404's route explanation are escaped",
);
let t: XssServer;
const baseline: { source?: string; sourceProfile?: ProfilePages; miss?: string; missProfile?: ProfilePages } = {};

test.before(async () => {
  t = await serveXssApp();
  ({ page: baseline.source, profile: baseline.sourceProfile } = await harmlessBaseline(t, '/source/harmless', 500));
  ({ page: baseline.miss, profile: baseline.missProfile } = await harmlessBaseline(t, '/num/harmless', 404));
});
test.after(async () => {
  await t.remove();
});

test('when the throwing line sits next to source lines holding every payload, then the highlighted excerpt and the exception panel inject nothing', async () => {
  const r = await hostileGet(t, '/source/hostile');
  assert.is(r.status, 500);
  assertNothingInjected(r.body, baseline.source!, 'error page with hostile source');
  const $ = load(r.body);
  const excerpt = $('.frame-app pre.code').first();
  assert.ok(excerpt.find('[class^="tok-"]').length > 0, 'the excerpt is highlighted');
  assert.ok(
    $('.frame-app a.editor').first().attr('href')!.startsWith('myeditor://open?file=/'),
    'with its editor link',
  );
  const text = excerpt.text();
  for (const payload of XSS_PAYLOADS)
    assert.ok(
      text.includes(JSON.stringify(payload)),
      `the source shows ${JSON.stringify(payload).slice(0, 40)} as text`,
    );
  const pages = await profilePages(t.base, r.token);
  assertProfileClean(pages, baseline.sourceProfile!, 'hostile source');
  assert.ok(
    pageText(pages.panels.get('exception')!).includes(JSON.stringify(XSS_PAYLOADS[0])),
    'the exception panel shows the source as text',
  );
});

xssCases('xss-in-source-excerpts-and-route-explanations').forEach(({ item: payload, index }) => {
  test(`when payload #${index} ${JSON.stringify(payload).slice(0, 50)} fails a requirement, then the 404's route explanation injects nothing`, async () => {
    const path = `/num/${rawPathSafe(payload)}`;
    if (payload.includes('\0')) return assertNulRefused(t, path);
    const r = await hostileGet(t, path);
    assert.is(r.status, 404);
    assertNothingInjected(r.body, baseline.miss!, '404 page with route explanation');
    const block = load(r.body)('.routing-miss').text();
    assert.ok(block.includes(`/num/${rawPathSafe(payload)}`), 'the heading shows the path as text');
    if (!payload.includes('/') && !/[\n\r\u2028\u2029]/.test(payload)) {
      const value = asText(decodeParameter(toMatchPath(rawPathSafe(payload))));
      assert.ok(
        block.includes(`Requirement for "{n}" (\\d+) does not match "${value}"`),
        'the failing value shows as text',
      );
    }
    assertProfileClean(await profilePages(t.base, r.token), baseline.missProfile!, `payload #${index}`);
  });
});

test.run();
