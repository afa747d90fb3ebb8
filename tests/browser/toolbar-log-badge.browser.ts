import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { serveAppSource } from '../helpers/serve.js';
import { serverAndChromium } from './chromium.js';

const PAGE =
  '<!DOCTYPE html><html><head><meta charset="UTF-8"><title>t</title></head><body><h1>Items</h1></body></html>';
const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
const page = ${JSON.stringify(PAGE)};
export const app = createApp({ name: 'badge' })
  .get('quiet', '/quiet', ({ log }) => { log.debug('Loaded 3 items'); return page; })
  .get('noisy', '/noisy', ({ log }) => {
    log.warning('Stock is low');
    log.error('The price service failed');
    log.withChannel('deprecation').info('items() is deprecated, use list()');
    return page;
  });
`;

const test = suite(
  "the toolbar's log badge in headless Chromium at 1400 and 390 px: errors red, warnings and deprecations yellow, debug records not counted",
);
const opened = serverAndChromium(test, { serve: () => serveAppSource('app.config.mjs', APP) });

async function badge(
  width: number,
  path: string,
): Promise<{ page: Page; text: string; pills: { text: string; background: string }[] }> {
  const page = await opened.browser.newPage({ viewport: { width, height: 700 } });
  await page.goto(`${opened.t.base}${path}`);
  const section = page.locator('#appkernel-toolbar .ak-s[data-panel=log]');
  await section.scrollIntoViewIfNeeded();
  assert.ok(await section.isVisible());
  const { text, pills } = await section.evaluate((el) => ({
    text: [...el.childNodes]
      .filter((n) => !(n instanceof HTMLElement && n.classList.contains('ak-det')))
      .map((n) => n.textContent)
      .join('')
      .trim(),
    pills: [...el.querySelectorAll(':scope > .ak-pill')].map((p) => ({
      text: p.textContent ?? '',
      background: getComputedStyle(p).backgroundColor,
    })),
  }));
  return { page, text, pills };
}

for (const width of [1400, 390]) {
  test(`at ${width} px, a page that logged only debug and info records reads "Logs 0", no pill`, async () => {
    const { page, text, pills } = await badge(width, '/quiet');
    assert.is(text, 'Logs 0');
    assert.equal(pills, []);
    await page.close();
  });

  test(`at ${width} px, a page with an error, a warning and a deprecation shows a red and two yellow pills`, async () => {
    const { page, text, pills } = await badge(width, '/noisy');
    assert.is(text, 'Logs 1 error1 warning1 deprecation');
    assert.equal(pills, [
      { text: '1 error', background: 'rgb(185, 28, 28)' },
      { text: '1 warning', background: 'rgb(180, 83, 9)' },
      { text: '1 deprecation', background: 'rgb(180, 83, 9)' },
    ]);
    await page.close();
  });
}

test.run();
