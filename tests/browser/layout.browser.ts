import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILT_IN_PANEL_NAMES } from '../../panels/registry.js';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { launchChromium, screenshotDir } from './chromium.js';

const LONG = 'a-rather-long-path-segment-'.repeat(12);
// The throw sits on one very long source line: the code excerpt must scroll inside itself.
const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ name: 'layout' })
  .get('home', '/', () => '<!DOCTYPE html><html><head><meta charset="UTF-8"><title>home</title></head><body><h1>Home</h1><p>An app page.</p></body></html>')
  .post('contact', '/contact', () => ({ ok: true }))
  .get('long', '/long/{rest}', function long({ log, params }) { log.info('A record with a long context', { rest: params.rest, list: ${JSON.stringify(Array.from({ length: 30 }, (_, i) => `item-${i}`))} }); const description = 'this line goes on and on so that its excerpt is far wider than any window: ' + ${JSON.stringify('x'.repeat(260))}; throw new Error('Failed with a long message: ' + description); }, { requirements: { rest: '.+' } });
`;

const WIDTHS = [1400, 390] as const;
const test = suite(
  'layouts in headless Chromium: no horizontal page scroll at 1400 and 390 px, screenshots in var/screenshots/layout',
);
let dir: string;
let t: TestServer;
let production: TestServer;
let browser: Browser;
let shots: string;
const pages: [string, string, number][] = [];

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-layout-'));
  writeFileSync(join(dir, 'app.config.mjs'), APP);
  t = await serveForTest({ appFile: join(dir, 'app.config.mjs'), root: dir });
  production = await serveForTest({ appFile: join(dir, 'app.config.mjs'), root: dir, debug: false });
  browser = await launchChromium();
  shots = screenshotDir('layout');
  const failing = (await fetchText(`${t.base}/long/${LONG}`, { headers: { referer: `${t.base}/${LONG}` } })).headers[
    'x-debug-token'
  ];
  const notFound = (await fetchText(`${t.base}/nowhere/${LONG}`)).headers['x-debug-token'];
  await fetchProfileJson(t.base, failing);
  await fetchProfileJson(t.base, notFound);
  pages.push(
    ['app page with toolbar', `${t.base}/`, 200],
    ['debug 404', `${t.base}/nowhere/${LONG}`, 404],
    ['debug 405', `${t.base}/contact`, 405],
    ['debug 500', `${t.base}/long/${LONG}`, 500],
    ['production 404', `${production.base}/nowhere/${LONG}`, 404],
    ['production 500', `${production.base}/long/${LONG}`, 500],
    ['profiler search', `${t.base}/_profiler/search?limit=10`, 200],
    ['profiler unknown token', `${t.base}/_profiler/abcdef`, 404],
    ...BUILT_IN_PANEL_NAMES.map((panel): [string, string, number] => [
      `${panel} panel of the 500`,
      `${t.base}/_profiler/${failing}?panel=${panel}`,
      200,
    ]),
    ['router panel of the 404', `${t.base}/_profiler/${notFound}?panel=router`, 200],
  );
});

test.after(async () => {
  await browser?.close();
  await t?.stop();
  await production?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`screenshots in ${shots}\n`);
});

/** The page's scroll and client widths, and the elements that reach past the right edge (for the message). */
async function overflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} right=${Math.round(el.getBoundingClientRect().right)}`,
      );
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits };
  });
}

async function visit(width: number, url: string, status: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const response = await page.goto(url);
  assert.is(response?.status(), status, url);
  return page;
}

const shotName = (what: string, width: number) => `${what.replace(/[^a-z0-9]+/gi, '-')}-${width}.png`;

for (const width of WIDTHS) {
  test(`at ${width} px, no page scrolls horizontally (error pages, production pages, search, every panel, an app page)`, async () => {
    const failures: string[] = [];
    for (const [what, url, status] of pages) {
      const page = await visit(width, url, status);
      const o = await overflow(page);
      if (o.scrollWidth > o.clientWidth)
        failures.push(`${what}: ${o.scrollWidth} > ${o.clientWidth} (${o.culprits.join(', ')})`);
      await page.screenshot({ path: join(shots, shotName(what, width)), fullPage: true });
      await page.close();
    }
    assert.equal(failures, []);
  });

  test(`at ${width} px, the toolbar with a section's details open stays inside the window`, async () => {
    const page = await visit(width, `${t.base}/`, 200);
    await page.locator('#appkernel-toolbar .ak-s[data-panel=log]').hover();
    const details = page.locator('#appkernel-toolbar .ak-s[data-panel=log] > .ak-det');
    assert.ok(await details.isVisible());
    const box = await details.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= width, JSON.stringify(box));
    const bar = await page.locator('#appkernel-toolbar .ak-bar').boundingBox();
    assert.ok(bar && bar.width <= width, JSON.stringify(bar));
    const o = await overflow(page);
    assert.ok(o.scrollWidth <= o.clientWidth, `${o.scrollWidth} > ${o.clientWidth}`);
    await page.screenshot({ path: join(shots, shotName('toolbar-details', width)) });
    await page.close();
  });
}

test("at 390 px, the search table's headers stay on one line and its rows scroll inside the card", async () => {
  const page = await visit(390, `${t.base}/_profiler/search?limit=10`, 200);
  const heights = await page.evaluate(() =>
    [...document.querySelectorAll('thead th')].map((th) => {
      const style = getComputedStyle(th);
      return {
        text: th.textContent,
        lines:
          (th.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) /
          parseFloat(style.lineHeight),
      };
    }),
  );
  assert.ok(heights.length >= 6);
  for (const h of heights) assert.ok(h.lines < 1.5, `${h.text} takes ${h.lines.toFixed(1)} lines`);
  const scrolls = await page.evaluate(() => {
    const table = document.querySelector('table')!;
    const box = table.parentElement!;
    return { overflowX: getComputedStyle(box).overflowX, wider: box.scrollWidth > box.clientWidth };
  });
  assert.ok(['auto', 'scroll'].includes(scrolls.overflowX), scrolls.overflowX);
  await page.close();
});

test("at 1400 px, the long source line of the 500's excerpt scrolls inside its block", async () => {
  const page = await visit(1400, pages.find(([what]) => what === 'exception panel of the 500')![1], 200);
  const code = await page.evaluate(() =>
    [...document.querySelectorAll('.code')].map((el) => ({ scroll: el.scrollWidth, client: el.clientWidth })),
  );
  assert.ok(
    code.some((c) => c.scroll > c.client),
    `some excerpt is wider than its block: ${JSON.stringify(code)}`,
  );
  await page.close();
});

test.run();
