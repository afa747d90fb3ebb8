import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { serveAppSource } from '../helpers/serve.js';
import { TOOLBAR_OBSERVER_SCRIPT } from '../../web-profiler/views/toolbar-observer-script.js';
import { serverAndChromium } from './chromium.js';

/** A page whose inline script in <head> fetches and sends an XHR while the page loads, with and without a CSP that refuses inline scripts. */
const loadingPage = `<!DOCTYPE html><html><head><meta charset="UTF-8"><title>loading</title>
<script>
fetch('/api/items/1').then(function (r) { return r.json(); }).then(function (item) { window.item = item; });
var x = new XMLHttpRequest(); x.open('GET', '/api/items/2'); x.send();
</script></head><body><h1>Items</h1><p>${'A paragraph of the page. '.repeat(40)}</p></body></html>`;

const appSource = `import { createApp, Response } from ${JSON.stringify(PACKAGE_ENTRY)};
const page = ${JSON.stringify(loadingPage)};
export const app = createApp({ name: 'early-fetch' })
  .get('loading', '/loading', () => Response.html(page))
  .get('strict', '/strict', () => Response.html(page, 200, { 'Content-Security-Policy': "script-src 'none'" }))
  .get('item', '/api/items/{id}', ({ params }) => ({ id: params.id }));
`;

const test = suite('the toolbar in headless Chromium: fetch and XHR calls an inline script makes while the page loads');
const opened = serverAndChromium(test, { serve: () => serveAppSource('app.config.mjs', appSource) });

for (const width of [1400, 390]) {
  test(`at ${width} px, when an inline script in <head> fetches during load, then the toolbar lists both calls with links to their profiles`, async () => {
    const context = await opened.browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${opened.t.base}/loading`);
    const section = page.locator('#appkernel-toolbar .ak-fetch');
    await section.locator('.ak-fetch-count', { hasText: '2' }).waitFor({ timeout: 5000 });
    assert.equal(
      await page.evaluate(() => (window as unknown as { item?: unknown }).item),
      { id: '1' },
      "the page's own fetch still works",
    );
    await section.hover();
    const rows = await section
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    assert.equal(rows.map((row) => row.slice(0, 3)).sort(), [
      ['200', 'GET', '/api/items/1'],
      ['200', 'GET', '/api/items/2'],
    ]);
    for (const row of rows) assert.match(row[3], /^[0-9a-f]{6}$/);
    const box = await section.locator('.ak-det').boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= width, `the list fits the window: ${JSON.stringify(box)}`);
    // the observer is the first element of <head>, its bytes those of every page
    assert.equal(
      await page.evaluate(() => [document.head.firstElementChild?.id, document.head.firstElementChild?.textContent]),
      ['appkernel-toolbar-observer', TOOLBAR_OBSERVER_SCRIPT],
    );
    assert.equal(errors, []);
    await context.close();
  });
}

test("when the page's CSP refuses inline scripts, then the toolbar still shows, without the list, and the page is unchanged", async () => {
  const context = await opened.browser.newContext({ viewport: { width: 1400, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${opened.t.base}/strict`);
  assert.ok(await page.locator('#appkernel-toolbar .ak-bar').isVisible());
  assert.not.ok(await page.locator('#appkernel-toolbar .ak-fetch').isVisible());
  assert.is(await page.evaluate(() => '__appkernelCalls' in window), false, 'the observer did not run');
  assert.ok(await page.getByRole('heading', { name: 'Items' }).isVisible());
  assert.equal(errors, []);
  await context.close();
});

test.run();
