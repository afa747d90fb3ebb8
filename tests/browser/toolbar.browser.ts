import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serverAndChromium } from './chromium.js';

const test = suite(
  "the toolbar in headless Chromium: details on hover and tap, hiding remembered, the page's fetch calls",
);
const opened = serverAndChromium(test);

interface Opened {
  context: BrowserContext;
  page: Page;
  dialogs: string[];
  errors: string[];
}

async function open(path: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<Opened> {
  const context = await opened.browser.newContext(options);
  const page = await context.newPage();
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${opened.t.base}${path}`);
  return { context, page, dialogs, errors };
}

const details = (page: Page, panel: string) => page.locator(`#appkernel-toolbar .ak-s[data-panel=${panel}] > .ak-det`);

test('when the pointer rests on a section, then its details open above the bar, with a link to its panel', async () => {
  const { context, page, errors } = await open('/hello/world');
  assert.not.ok(await details(page, 'log').isVisible(), 'closed at first');
  await page.locator('#appkernel-toolbar .ak-s[data-panel=log]').hover();
  assert.ok(await details(page, 'log').isVisible());
  assert.ok(await details(page, 'log').getByText('INFO').isVisible());
  await page.locator('#appkernel-toolbar .ak-s[data-panel=request]').hover();
  assert.not.ok(await details(page, 'log').isVisible(), 'closed when the pointer leaves');
  assert.ok(await details(page, 'request').locator('a[href*="?panel=request"]').isVisible());
  assert.equal(errors, []);
  await context.close();
});

test('when a section is tapped on a 360 px touch screen, then its details open and fit the screen', async () => {
  const { context, page, errors } = await open('/robots.txt', {
    viewport: { width: 360, height: 740 },
    hasTouch: true,
    isMobile: true,
  });
  await page.locator('#appkernel-toolbar .ak-s[data-panel=exception]').tap();
  const box = await details(page, 'exception').boundingBox();
  assert.ok(box, 'the exception details are visible');
  assert.ok(box.x >= 0 && box.x + box.width <= 360, JSON.stringify(box));
  assert.ok(await details(page, 'exception').getByText('ResourceNotFoundError').isVisible());
  const bar = await page.locator('#appkernel-toolbar .ak-bar').boundingBox();
  assert.ok(bar && bar.width <= 360, JSON.stringify(bar));
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth));
  assert.equal(errors, []);
  await context.close();
});

test('when the toolbar is hidden, then it stays hidden after a reload and on the next page, until shown again', async () => {
  const { context, page, errors } = await open('/hello/world');
  const bar = page.locator('#appkernel-toolbar .ak-bar');
  const tab = page.locator('#appkernel-toolbar .ak-tab');
  assert.ok(await bar.isVisible());
  assert.not.ok(await tab.isVisible());
  await page.locator('#appkernel-toolbar .ak-hide').click();
  assert.not.ok(await bar.isVisible());
  assert.ok(await tab.isVisible());
  await page.reload();
  assert.not.ok(await bar.isVisible(), 'still hidden after a reload');
  await page.goto(`${opened.t.base}/`);
  assert.not.ok(await bar.isVisible(), 'hidden on another page');
  await tab.click();
  assert.ok(await bar.isVisible());
  await page.reload();
  assert.ok(await bar.isVisible(), 'shown again after a reload');
  assert.equal(errors, []);
  await context.close();
});

test('when the page makes fetch and XHR calls, then each appears with status, method, URL and a working link to its profile', async () => {
  const { context, page, errors } = await open('/');
  assert.not.ok(await page.locator('#appkernel-toolbar .ak-fetch').isVisible(), 'no fetch section before a call');
  const tokens = await page.evaluate(async () => {
    const first = await fetch('/hello/fetched');
    const xhr = await new Promise<XMLHttpRequest>((resolve) => {
      const request = new XMLHttpRequest();
      request.open('POST', '/contact');
      request.setRequestHeader('Content-Type', 'application/json');
      request.onloadend = () => resolve(request);
      request.send('{}');
    });
    return [first.headers.get('X-Debug-Token'), xhr.getResponseHeader('X-Debug-Token')];
  });
  const section = page.locator('#appkernel-toolbar .ak-fetch');
  await section.locator('.ak-fetch-count', { hasText: '2' }).waitFor();
  await section.hover();
  const rows = await section
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  assert.equal(rows, [
    ['200', 'POST', '/contact', tokens[1]],
    ['200', 'GET', '/hello/fetched', tokens[0]],
  ]);
  const link = section.locator(`a[href="/_profiler/${tokens[0]}"]`);
  await Promise.all([page.waitForURL(`**/_profiler/${tokens[0]}`), link.click()]);
  assert.ok(await page.getByText('/hello/fetched').first().isVisible(), 'the profile of the fetched request');
  assert.equal(errors, []);
  await context.close();
});

test('when a fetched URL carries markup, then the list shows it as text and nothing runs', async () => {
  const { context, page, dialogs, errors } = await open('/');
  await page.evaluate(async () => {
    await fetch('/hello/<script>alert(1)</script>?q=<img src=x onerror=alert(2)>');
    await fetch('/"><svg onload=alert(3)>', { method: '<b>GET</b>' }).catch(() => undefined);
    await fetch('https://example.invalid/elsewhere').catch(() => undefined);
  });
  const section = page.locator('#appkernel-toolbar .ak-fetch');
  await section.locator('.ak-fetch-count', { hasText: '2' }).waitFor();
  await section.hover();
  const rows = await section
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  assert.equal(
    rows.map((row) => row.slice(0, 3)),
    [
      ['error', '<B>GET</B>', '/"><svg onload=alert(3)>'],
      ['404', 'GET', '/hello/<script>alert(1)</script>?q=<img src=x onerror=alert(2)>'],
    ],
  );
  assert.is(rows[0][3], '-', 'a call that never answered has no profile');
  assert.match(rows[1][3] ?? '', /^[0-9a-f]{6}$/, 'the 404 links to its profile');
  assert.not.ok(JSON.stringify(rows).includes('example.invalid'), 'another origin is not listed');
  assert.is(await page.locator('#appkernel-toolbar script').count(), 1);
  assert.is(await page.locator('#appkernel-toolbar img, #appkernel-toolbar svg').count(), 0);
  assert.is(
    await page.locator('#appkernel-toolbar .ak-fetch-list *:not(tr, td, span.ak-pill, a)').count(),
    0,
    'only the rows the script builds',
  );
  assert.equal(dialogs, []);
  assert.equal(errors, []);
  await context.close();
});

test('when a fetched URL holds a bidi override, then the list shows it as its escape and the rest of the URL in order', async () => {
  const { context, page, errors } = await open('/');
  await page.evaluate(async () => {
    await fetch('/hello/invoice%E2%80%AEgpj.exe');
  });
  const section = page.locator('#appkernel-toolbar .ak-fetch');
  await section.locator('.ak-fetch-count', { hasText: '1' }).waitFor();
  const url = await section.locator('tbody td').nth(2).textContent();
  assert.is(url, '/hello/invoice\\u202egpj.exe');
  assert.equal(errors, []);
  await context.close();
});

for (const width of [320, 390]) {
  test(`at ${width} px, where the bar wraps onto several lines, then the end of the page can still be scrolled above it`, async () => {
    const { context, page, errors } = await open('/robots.txt', { viewport: { width, height: 640 } });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const { contentBottom, barTop, barHeight } = await page.evaluate(() => {
      const spacer = document.querySelector('.appkernel-toolbar-spacer')!;
      const last = spacer.previousElementSibling!;
      const bar = document.getElementById('appkernel-toolbar')!.getBoundingClientRect();
      return { contentBottom: last.getBoundingClientRect().bottom, barTop: bar.top, barHeight: bar.height };
    });
    assert.ok(barHeight > 36, `the bar wraps: ${barHeight} px`);
    assert.ok(contentBottom <= barTop + 0.5, `the page ends at ${contentBottom}, under the bar from ${barTop}`);
    assert.equal(errors, []);
    await context.close();
  });
}

test('when a fetched URL is very long, then the other cells of its row stay on one line and the URL wraps', async () => {
  const { context, page, errors } = await open('/');
  await page.evaluate(async () => {
    await fetch(`/hello/${'a'.repeat(300)}?q=${'b'.repeat(300)}`);
  });
  const section = page.locator('#appkernel-toolbar .ak-fetch');
  await section.locator('.ak-fetch-count', { hasText: '1' }).waitFor();
  await section.hover();
  const lines = await section.locator('tbody td').evaluateAll((tds) =>
    tds.map((td) => {
      const tops = new Set<number>();
      const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(text);
        for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
      }
      return tops.size;
    }),
  );
  assert.is(lines.length, 4);
  assert.equal(
    [lines[0], lines[1], lines[3]],
    [1, 1, 1],
    `status, method and profile on one line each: ${lines.join(', ')}`,
  );
  assert.ok(lines[2] > 1, 'the URL wraps');
  assert.equal(errors, []);
  await context.close();
});

test.run();
