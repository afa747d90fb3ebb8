import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveAppSource } from '../helpers/serve.js';
import { serverAndChromium } from './chromium.js';

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ name: 'columns' })
  .get('home', '/', () => '<!DOCTYPE html><html><head><title>home</title></head><body><h1>Home</h1></body></html>')
  .get('item', '/api/items/{id}', () => ({ ok: true }), { requirements: { id: '\\\\d+' } })
  .put('only_put', '/only-put', () => 'ok');
`;

const test = suite('panel tables in headless Chromium: short cells keep their words whole');
const opened = serverAndChromium(test, { serve: () => serveAppSource('app.config.mjs', APP) });
let ok: string;
let notAllowed: string;

test.before(async () => {
  ok = (await fetchText(`${opened.t.base}/`)).headers['x-debug-token'];
  notAllowed = (await fetchText(`${opened.t.base}/only-put`)).headers['x-debug-token'];
  await fetchProfileJson(opened.t.base, ok);
  await fetchProfileJson(opened.t.base, notAllowed);
});

async function visit(width: number, path: string): Promise<Page> {
  const page = await opened.browser.newPage({ viewport: { width, height: 900 } });
  const response = await page.goto(`${opened.t.base}${path}`);
  assert.is(response?.status(), 200, path);
  return page;
}

/** The words (a hyphen ends one) of the cells matching `selector` that the browser broke across two lines. */
function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((cells) => {
    const broken: string[] = [];
    for (const cell of document.querySelectorAll(cells)) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        for (const word of node.data.matchAll(/[^\s-]+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index!);
          range.setEnd(node, word.index! + word[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(word[0]);
        }
      }
    }
    return broken;
  }, selector);
}

/** The texts of the cells matching `selector` that take more than one line. */
function wrappedCells(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    (cells) =>
      [...document.querySelectorAll(cells)]
        .filter((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1;
        })
        .map((cell) => cell.textContent ?? ''),
    selector,
  );
}

for (const width of [1400, 1024]) {
  test(`at ${width} px, the Performance panel's kind, start and duration stay on one line`, async () => {
    const page = await visit(width, `/_profiler/${ok}?panel=time`);
    assert.equal(await wrappedCells(page, 'main table td:is(:nth-child(1), :nth-child(3), :nth-child(4))'), []);
    await page.close();
  });

  test(`at ${width} px, the Routing panel's route names and paths are not cut inside a word`, async () => {
    const page = await visit(width, `/_profiler/${notAllowed}?panel=router`);
    assert.equal(await brokenWords(page, 'main table td.mono'), []);
    await page.close();
  });
}

test('at 390 px, a key-value table leaves most of the width to the values', async () => {
  const page = await visit(390, `/_profiler/${ok}?panel=request`);
  const widths = await page.evaluate(() =>
    [...document.querySelectorAll('main table.kv')].slice(0, 3).map((table) => {
      const row = table.querySelector('tr')!;
      return {
        key: row.children[0].getBoundingClientRect().width,
        value: row.children[1].getBoundingClientRect().width,
      };
    }),
  );
  assert.ok(widths.length > 0);
  for (const w of widths) assert.ok(w.value > w.key, JSON.stringify(w));
  await page.close();
});

test.run();
