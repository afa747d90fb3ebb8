import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchText } from '../helpers/serve.js';
import { serveDatabaseApp } from '../core/debug/database-app.js';
import { serverAndChromium } from './chromium.js';

const test = suite('the Database panel in headless Chromium, at 1400 and 390 px');
const opened = serverAndChromium(test, {
  serve: () => serveDatabaseApp({ slowQueryMs: 45 }),
  close: (server) => server.remove(),
});

async function token(path: string): Promise<string> {
  return (await fetchText(`${opened.t.base}${path}`)).headers['x-debug-token'];
}

for (const width of [1400, 390]) {
  test(`at ${width} px, when the panel shows an N+1, a failed, a slow and a Kysely query, then nothing runs past the window and Explain shows the plan`, async () => {
    const context = await opened.browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    for (const path of ['/n-plus-one', '/pg/failing', '/tagged/slow', '/pg/kysely', '/pg/secret']) {
      await page.goto(`${opened.t.base}/_profiler/${await token(path)}?panel=db`);
      assert.ok(await page.locator('main h2', { hasText: 'Database' }).isVisible(), path);
      const overflow = await page.evaluate(() =>
        [document.documentElement, ...document.querySelectorAll('main .card, main pre, main table')]
          .filter((element) => element.scrollWidth > element.clientWidth + 1)
          .map(
            (element) =>
              `${element.tagName}.${element.className} ${element.scrollWidth}>${element.clientWidth}: ${element.textContent?.slice(0, 80)}`,
          ),
      );
      assert.equal(overflow, [], `${path}: nothing scrolls sideways`);
    }
    await page.goto(`${opened.t.base}/_profiler/${await token('/n-plus-one')}?panel=db`);
    assert.ok(await page.locator('.db-repeated').isVisible());
    await page.locator('main details summary', { hasText: 'Runnable SQL' }).first().click();
    assert.is(await page.locator('main .db-runnable').first().textContent(), 'SELECT name FROM users WHERE id = 1');
    await Promise.all([
      page.waitForURL('**/_profiler/explain'),
      page.locator('form.db-explain button').first().click(),
    ]);
    assert.match((await page.locator('.db-plan').textContent()) ?? '', /(Index|Seq) Scan/);
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      'the plan fits',
    );
    assert.equal(errors, []);
    await context.close();
  });
}

test.run();
