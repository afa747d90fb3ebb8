import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { screenshotDir, serverAndChromium } from './chromium.js';

const test = suite('the pages in headless Chromium');
const opened = serverAndChromium(test);
let shots: string;

test.before(async () => {
  shots = screenshotDir('pages');
});

test.after(async () => {
  process.stdout.write(`screenshots in ${shots}\n`);
});

/** Opens a page and collects console errors and dialogs; the expected HTTP status of the page itself is not an error. */
async function open(
  path: string,
  expectedStatus: number,
): Promise<{ page: Page; errors: string[]; dialogs: string[] }> {
  const page = await opened.browser.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (
      /Failed to load resource: the server responded with a status of \d+/.test(message.text()) &&
      message.location().url === `${opened.t.base}${path}`
    )
      return;
    errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const response = await page.goto(`${opened.t.base}${path}`);
  assert.is(response?.status(), expectedStatus, path);
  await page.screenshot({ path: join(shots, `${path.replace(/[^a-z0-9]+/gi, '_') || 'index'}.png`), fullPage: true });
  return { page, errors, dialogs };
}

test('when the 404 page is opened, then its heading, messages and numbered traces are visible, with no console error', async () => {
  const { page, errors } = await open('/robots.txt', 404);
  assert.ok(await page.getByText('Error 404 Not Found').first().isVisible());
  assert.ok(await page.getByText('No routes found for "/robots.txt/"').first().isVisible());
  assert.ok(await page.getByText('[2/2]').first().isVisible());
  assert.equal(errors, []);
  await page.close();
});

test('when the exception panel is opened, then both exceptions and the log table are visible, with no console error', async () => {
  const token = (await fetchText(`${opened.t.base}/robots.txt`)).headers['x-debug-token'];
  await fetchProfileJson(opened.t.base, token);
  const { page, errors } = await open(`/_profiler/${token}?panel=exception&type=request`, 200);
  assert.ok(await page.getByText('ResourceNotFoundError').first().isVisible());
  assert.ok(await page.getByText('[1/2]').first().isVisible());
  assert.ok(await page.locator('th', { hasText: 'Channel' }).first().isVisible());
  assert.equal(errors, []);
  await page.close();
});

test('when the search results are opened, then Profile Search and its rows are visible', async () => {
  const { page, errors } = await open('/_profiler/search?limit=10', 200);
  assert.ok(await page.getByText('Profile Search').first().isVisible());
  assert.ok(await page.locator('td a[href*="/_profiler/"]').first().isVisible());
  assert.equal(errors, []);
  await page.close();
});

test('when a page of the app is opened, then the toolbar is visible and links to its profile', async () => {
  const { page, errors } = await open('/', 200);
  const toolbar = page.locator('#appkernel-toolbar, .appkernel-toolbar').first();
  assert.ok(await toolbar.isVisible());
  assert.ok(await toolbar.locator('a[href*="/_profiler/"]').first().isVisible());
  assert.equal(errors, []);
  await page.close();
});

test('when script payloads are reflected in the path and a route parameter, then no script runs', async () => {
  const payloads = ['<script>alert(1)</script>', '<img src=x onerror=alert(2)>', '"><svg onload=alert(3)>'];
  for (const payload of payloads) {
    for (const path of [`/x${encodeURIComponent(payload)}`, `/hello/${encodeURIComponent(payload)}`]) {
      const status = path.startsWith('/hello/') && !payload.includes('/') ? 200 : 404;
      const { page, dialogs } = await open(path, status);
      assert.equal(dialogs, [], `${path} ran a script`);
      await page.close();
    }
  }
});

test.run();
