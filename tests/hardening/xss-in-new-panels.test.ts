import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderProfileText } from '../../panels/profile-text.js';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveAppSource, type TestServer } from '../helpers/serve.js';
import {
  asText,
  assertNothingInjected,
  assertProfileClean,
  pageText,
  profilePages,
  XSS_PAYLOADS,
  xssCases,
  type ProfilePages,
} from './xss-harness.js';

const FIXTURES = resolve(process.cwd(), 'dist/tests/hardening/fixtures/xss-payloads.js');

/**
 * A payload in every place the new panels show: a stopwatch span's name, a dumped key, value and
 * class name, an app panel's cells, an outgoing call's URL and header (sent to this same server).
 */
const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
import { XSS_PAYLOADS } from ${JSON.stringify(FIXTURES)};

const payload = (index) => (index === 'harmless' ? 'harmless' : XSS_PAYLOADS[Number(index)]);

export const app = createApp({ name: 'xss-panels' })
  .panel('hostile', { title: 'Hostile', columns: ['Value', 'Again'], row: (entry) => [entry.text, { text: entry.text }] })
  .get('target', '/target', () => 'ok')
  .get('panels', '/panels/{index}', async function panels({ params, request, stopwatch, dump, record }) {
    const text = payload(params.index);
    stopwatch.start(text);
    stopwatch.stop(text);
    const Named = { [text]: class {} }[text];
    const value = new Named();
    value[text] = text;
    dump(value);
    record('hostile', { text });
    const header = encodeURIComponent(text.replace(/\\0/g, '')); // a NUL byte is refused before the target answers
    await fetch(request.baseUrl + '/target?value=' + header, { headers: { 'x-value': header } }).then((r) => r.text());
    return { ok: true };
  });
`;

const test = suite('XSS payloads in spans, dumps, app panels and outgoing calls are escaped on every new panel');
let t: TestServer;
let baseline: ProfilePages;
let baselineCustom: string;

async function hostile(index: string): Promise<{ pages: ProfilePages; custom: string; token: string }> {
  const r = await fetchText(`${t.base}/panels/${index}`);
  assert.is(r.status, 200, r.body);
  const token = r.headers['x-debug-token'];
  const pages = await profilePages(t.base, token);
  const custom = (await fetchText(`${t.base}/_profiler/${token}?panel=hostile`)).body;
  return { pages, custom, token };
}

test.before(async () => {
  t = await serveAppSource('app.config.mjs', APP);
  const harmless = await hostile('harmless');
  baseline = harmless.pages;
  baselineCustom = harmless.custom;
});
test.after(async () => {
  await t.stop();
});

xssCases('xss-in-new-panels').forEach(({ item: payload, index }) => {
  test(`when payload #${index} ${JSON.stringify(payload).slice(0, 60)} goes through the new panels, then no page injects it and the text is terminal-safe`, async () => {
    const { pages, custom, token } = await hostile(String(index));
    assertProfileClean(pages, baseline, `payload #${index}`);
    assertNothingInjected(custom, baselineCustom, `payload #${index}, app panel`);
    const shown = asText(payload);
    assert.ok(
      pageText(custom).includes(shown) || pageText(custom).includes('[REDACTED]'),
      'the app panel shows the payload as text',
    );
    const profile = await fetchProfileJson(t.base, token);
    for (const panel of ['http_client', 'dump', 'time', 'hostile']) {
      assert.not.match(
        renderProfileText(profile, panel, { color: false }),
        /[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u2028\u2029\u202a-\u202e]/,
        `${panel} text`,
      );
    }
  });
});

test.run();
