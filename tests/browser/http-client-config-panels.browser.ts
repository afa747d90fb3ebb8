import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchText } from '../helpers/serve.js';
import { servePanelsApp } from '../web-profiler/panels/panels-app.js';
import { serverAndChromium } from './chromium.js';

const test = suite('the HTTP client and configuration panels in headless Chromium, at 1400 and 390 px');
const opened = serverAndChromium(test, { serve: () => servePanelsApp(), close: (server) => server.remove() });

async function token(path: string): Promise<string> {
  const r = await fetchText(`${opened.t.base}${path}`);
  return r.headers['x-debug-token'];
}

for (const width of [1400, 390]) {
  test(`at ${width} px, when a call's body was never read and another's callee has a profile, then the panel says so and links to it, within the window`, async () => {
    const unread = await token('/unread');
    const caller = await token('/callee');
    const context = await opened.browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${opened.t.base}/_profiler/${unread}?panel=http_client`);
    assert.ok(await page.getByText('body not read').first().isVisible());
    assert.not.ok((await page.locator('main').textContent())?.includes('in flight'));
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      'no sideways scroll',
    );
    await page.goto(`${opened.t.base}/_profiler/${caller}?panel=http_client`);
    const link = page.locator('main .card a[href^="/_profiler/"]').first();
    assert.ok(await link.isVisible());
    const callee = await link.textContent();
    await Promise.all([page.waitForURL(`**/_profiler/${callee}`), link.click()]);
    assert.ok(await page.getByText('/cache').first().isVisible(), "the callee's profile opened");
    assert.equal(errors, []);
    await context.close();
  });

  test(`at ${width} px, when the configuration panel opens, then it shows values in effect with defaults marked, not the host's variables, within the window`, async () => {
    const profile = await token('/cache');
    const context = await opened.browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${opened.t.base}/_profiler/${profile}?panel=config`);
    const main = (await page.locator('main').textContent()) ?? '';
    assert.ok(main.includes('10000 (default)'), 'retention in effect');
    assert.ok(main.includes('localhost, 127.0.0.1, [::1] (default)'), 'allowed hosts in effect');
    assert.not.ok(/\bPATH\b/.test(main), 'no host PATH');
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      'no sideways scroll',
    );
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height < 3000, `a page of ${height} px, not the 4,292 px of the host's environment`);
    await context.close();
  });
}

test.run();
