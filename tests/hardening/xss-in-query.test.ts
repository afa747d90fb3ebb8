import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { looksSecret } from '../../core/redaction/index.js';
import {
  asText,
  assertNothingInjected,
  assertNulRefused,
  assertProfileClean,
  hostileGet,
  pageText,
  profilePages,
  serveXssApp,
  xssCases,
  type ProfilePages,
  type XssServer,
} from './xss-harness.js';

const test = suite('XSS payloads as query names and values are escaped');
let t: XssServer;
/** One baseline per kind of name: a secret-looking one ("passwd" in a payload) adds its name to the redacted list. */
const baselines = new Map<boolean, { page: string; profile: ProfilePages }>();

/** The payload as one query parameter's value and as another's name. */
const query = (payload: string) => `q=${encodeURIComponent(payload)}&${encodeURIComponent(payload)}=v`;

test.before(async () => {
  t = await serveXssApp();
  for (const [secret, value] of [
    [false, 'harmless'],
    [true, 'harmless_passwd'],
  ] as const) {
    const r = await hostileGet(t, `/page?${query(value)}`);
    baselines.set(secret, { page: r.body, profile: await profilePages(t.base, r.token) });
  }
});
test.after(async () => {
  await t.remove();
});

xssCases('xss-in-query').forEach(({ item: payload, index }) => {
  test(`when payload #${index} ${JSON.stringify(payload).slice(0, 50)} is in the query, then the page, its toolbar and every panel inject nothing`, async () => {
    if (payload.includes('\0')) return assertNulRefused(t, `/page?${query(payload)}`);
    const r = await hostileGet(t, `/page?${query(payload)}`);
    assert.is(r.status, 200);
    const baseline = baselines.get(looksSecret(payload))!;
    assertNothingInjected(r.body, baseline.page, 'page with toolbar');
    const pages = await profilePages(t.base, r.token);
    assertProfileClean(pages, baseline.profile, `payload #${index}`);
    assert.ok(
      pageText(pages.panels.get('request')!).includes(asText(payload)),
      'the request panel shows the query as text',
    );
  });
});

test.run();
