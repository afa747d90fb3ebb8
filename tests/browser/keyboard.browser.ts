import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveAppSource } from '../helpers/serve.js';
import { serverAndChromium } from './chromium.js';

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ name: 'keyboard' })
  .get('home', '/', ({ log }) => { log.warning('Careful.'); log.error('Broken.'); return '<!DOCTYPE html><html><head><title>home</title></head><body><h1>Home</h1></body></html>'; });
`;

const test = suite('the profiler pages with the keyboard alone, in headless Chromium');
const opened = serverAndChromium(test, { serve: () => serveAppSource('app.config.mjs', APP) });
let token: string;

test.before(async () => {
  token = (await fetchText(`${opened.t.base}/`)).headers['x-debug-token'];
  await fetchProfileJson(opened.t.base, token);
});

/** Presses Tab until the focused element matches `selector`; false if it never does. */
async function tabTo(page: Page, selector: string): Promise<boolean> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
  }
  return false;
}

/** What shows where the focus is: the element's outline or box shadow, none when neither. */
function focusRing(page: Page, selector: string): Promise<string> {
  return page.evaluate((s) => {
    const style = getComputedStyle(document.querySelector(s)!);
    if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return `outline ${style.outlineStyle}`;
    return style.boxShadow === 'none' ? 'none' : `box-shadow ${style.boxShadow}`;
  }, selector);
}

test("the log panel's level filter is reached with Tab, changed with the arrows, and shows where the focus is", async () => {
  const page = await opened.browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${opened.t.base}/_profiler/${token}?panel=log`);
  assert.ok(await tabTo(page, '#lf-all'), 'Tab reaches the level filter');
  assert.is.not(await focusRing(page, 'label[for=lf-all]'), 'none');
  await page.keyboard.press('ArrowRight');
  assert.ok(await page.isChecked('#lf-error'));
  assert.is.not(await focusRing(page, 'label[for=lf-error]'), 'none');
  assert.is(await focusRing(page, 'label[for=lf-all]'), 'none');
  assert.equal(await page.locator('table.log tbody tr:visible').evaluateAll((rows) => rows.map((r) => r.className)), [
    'log-error',
  ]);
  await page.close();
});

test.run();
