import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchRawPath } from '../helpers/serve.js';
import { TOOLBAR_OBSERVER_SCRIPT } from '../../web-profiler/views/toolbar-observer-script.js';
import { TOOLBAR_SCRIPT } from '../../web-profiler/views/toolbar-script.js';
import {
  headerSafe,
  hostileGet,
  profilePages,
  rawPathSafe,
  serveXssApp,
  XSS_PAYLOADS,
  type XssServer,
} from '../hardening/xss-harness.js';
import { launchChromium } from './chromium.js';

/** Every fourth payload of the corpus (a NUL byte never reaches a page: its URL is refused). */
const SAMPLE = XSS_PAYLOADS.map((payload, index) => ({ payload, index })).filter(
  ({ payload, index }) => index % 4 === 0 && !payload.includes('\0'),
);

const test = suite('XSS payloads on the pages in headless Chromium: no dialog opens, no script runs');
let t: XssServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const dialogs: string[] = [];
const errors: string[] = [];

test.before(async () => {
  t = await serveXssApp();
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => errors.push(error.message));
});

test.after(async () => {
  await context?.close();
  await browser?.close();
  await t?.remove();
});

interface Visit {
  dialogs: string[];
  errors: string[];
  xss: unknown;
  scripts: number;
}

/** Opens `url` (or sets `html`) in the page and reports what ran there; each navigation starts a fresh window. */
async function visit(target: { url: string } | { html: string }): Promise<Visit> {
  dialogs.length = 0;
  errors.length = 0;
  if ('url' in target) await page.goto(target.url, { waitUntil: 'load' });
  else await page.setContent(target.html, { waitUntil: 'load' });
  return visitAgain();
}

/** What ran in the page as it is now, without navigating. */
async function visitAgain(): Promise<Visit> {
  // Handlers of failed loads (onerror) fire by 'load'; one more round trip lets queued tasks run.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  const xss = await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss);
  // The toolbar's own scripts (their exact texts: a child of the toolbar, and the observer in <head>) are the only scripts a page may hold.
  const scripts = await page.evaluate(
    ([own, observer]) =>
      [...document.querySelectorAll('script')].filter(
        (script) =>
          !(script.parentElement?.id === 'appkernel-toolbar' && script.textContent === own) &&
          !(script.id === 'appkernel-toolbar-observer' && script.textContent === observer) &&
          !(script.getAttribute('src') === '/_profiler/live-search.js' && script.textContent === ''),
      ).length,
    [TOOLBAR_SCRIPT, TOOLBAR_OBSERVER_SCRIPT],
  );
  return { dialogs: [...dialogs], errors: [...errors], xss, scripts };
}

function assertNothingRan(v: Visit, where: string): void {
  assert.equal(v.dialogs, [], `${where}: a dialog opened`);
  assert.is(v.xss, undefined, `${where}: a payload set window.__xss`);
  assert.equal(v.errors, [], `${where}: a script ran and failed`);
  assert.is(v.scripts, 0, `${where}: a <script> element other than the toolbar's exists`);
}

test('when a payload is put raw into a page, then this harness sees it run (the check can fail)', async () => {
  const v = await visit({
    html: `<p>${XSS_PAYLOADS.find((p) => p.startsWith('<img src=x onerror=window.__xss'))}</p><script>alert(1)</script>`,
  });
  assert.is(v.xss, 1);
  assert.equal(v.dialogs, ['1']);
});

for (const { payload, index } of SAMPLE) {
  test(`when payload #${index} ${JSON.stringify(payload).slice(0, 50)} is logged, thrown, sent as path, query and headers, then no page runs it`, async () => {
    const failing = await hostileGet(t, `/fail/${index}`);
    const value = headerSafe(payload);
    const reflected = await hostileGet(t, `/param/${rawPathSafe(payload)}?q=${encodeURIComponent(payload)}`, {
      referer: value,
      'user-agent': value,
      'x-payload': value,
    });
    const notFound = await hostileGet(t, `/nowhere/${rawPathSafe(payload)}`, { referer: value });
    const urls = [
      `${t.base}/fail/${index}`,
      `${t.base}/param/${rawPathSafe(payload)}?q=${encodeURIComponent(payload)}`,
    ];
    for (const [token, panels] of [
      [failing.token, ['exception', 'log']],
      [reflected.token, ['request']],
      [notFound.token, ['router']],
    ] as const) {
      await profilePages(t.base, token);
      for (const panel of panels) urls.push(`${t.base}/_profiler/${token}?panel=${panel}`);
    }
    urls.push(`${t.base}/_profiler/search?limit=10&ip=${encodeURIComponent(payload)}`);
    urls.push(`${t.base}/_profiler/search?limit=10&url=/nowhere/`, `${t.base}/_profiler/search?limit=10&url=/param/`);
    urls.push(`${t.base}/_profiler/${failing.token}?panel=${encodeURIComponent(payload)}`);
    for (const url of urls) assertNothingRan(await visit({ url }), url.slice(t.base.length, t.base.length + 100));
    // The 404 page the browser gets for the raw path (it percent-encodes what it must, as a victim's browser would).
    assert.is((await fetchRawPath(t.base, `/nowhere/${rawPathSafe(payload)}`)).status, 404);
    assertNothingRan(await visit({ url: `${t.base}/nowhere/${rawPathSafe(payload)}` }), '404 page');
    // The toolbar's fetch list: the page fetches the payload as path, query and method; the list shows it and runs nothing.
    await visit({ url: `${t.base}/page` });
    await page.evaluate(async (p) => {
      await fetch(`/param/${encodeURIComponent(p)}?q=${encodeURIComponent(p)}`).catch(() => undefined);
      await fetch('/page', { method: p }).catch(() => undefined);
    }, payload);
    await page.locator('#appkernel-toolbar .ak-fetch-count', { hasText: '2' }).waitFor({ state: 'attached' });
    const listed = await visitAgain();
    assertNothingRan(listed, 'toolbar fetch list');
  });
}

test.run();
