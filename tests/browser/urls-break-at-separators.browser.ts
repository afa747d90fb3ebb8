import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveAppSource } from '../helpers/serve.js';
import { serverAndChromium } from './chromium.js';

// On a phone the profiler's URLs broke mid-word ("/api/it" then "ems/"): they now break after
// "/", "?" and "&", and mid-word only when one piece is wider than the screen.
const PATH = '/api/catalogue/items/12345/variants?filter=available&sort=price&page=2&colour=blue';
const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ name: 'urls' })
  .get('variants', '/api/catalogue/items/{id}/variants', async ({ params }) => {
    await fetch(\`http://127.0.0.1:\${process.env.URLS_TEST_PORT}/api/catalogue/items/\${params.id}/stock?warehouse=north&fresh=1\`).then((r) => r.text()).catch(() => '');
    return { id: params.id };
  })
  .get('stock', '/api/catalogue/items/{id}/stock', () => ({ stock: 3 }));
`;

const test = suite('URLs in the profiler pages break at / ? & on a 390 px screen, not mid-word (headless Chromium)');
const opened = serverAndChromium(test, { serve: () => serveAppSource('app.config.mjs', APP) });
let token: string;

test.before(async () => {
  process.env.URLS_TEST_PORT = new URL(opened.t.base).port;
  token = (await fetchText(`${opened.t.base}${PATH}`)).headers['x-debug-token'];
  await fetchProfileJson(opened.t.base, token);
});

/**
 * Where the text of each element matching `selector` that holds `needle` goes onto a new line:
 * the two characters either side of each break.
 */
async function lineBreaks(page: Page, selector: string, needle: string): Promise<string[][]> {
  return page.evaluate(
    ({ selector, needle }) =>
      [...document.querySelectorAll(selector)]
        .filter((el) => (el.textContent ?? '').includes(needle))
        .map((el) => {
          const chars: { ch: string; top: number }[] = [];
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent ?? '';
            for (let i = 0; i < text.length; i++) {
              const range = document.createRange();
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              const rect = range.getClientRects()[0];
              if (rect) chars.push({ ch: text[i]!, top: Math.round(rect.top) });
            }
          }
          const breaks: string[] = [];
          for (let i = 1; i < chars.length; i++)
            if (chars[i]!.top > chars[i - 1]!.top + 2) breaks.push(`${chars[i - 1]!.ch}${chars[i]!.ch}`);
          return breaks;
        }),
    { selector, needle },
  );
}

const PLACES: [what: string, url: () => string, selector: string, needle: string][] = [
  ['profile header', () => `/_profiler/${token}?panel=request`, 'header.summary h1', '/variants?'],
  ['request panel URL row', () => `/_profiler/${token}?panel=request`, 'main td', '/variants?'],
  ['search results', () => '/_profiler/search?limit=10', 'td.url', '/variants?'],
  ['HTTP client panel', () => `/_profiler/${token}?panel=http_client`, 'main td, main h3', '/stock?'],
];

for (const [what, url, selector, needle] of PLACES) {
  test(`at 390 px, the ${what} breaks the URL only after / ? & (never between two letters or digits), and the page does not scroll sideways`, async () => {
    const page = await opened.browser.newPage({ viewport: { width: 390, height: 900 } });
    try {
      assert.is((await page.goto(`${opened.t.base}${url()}`))?.status(), 200);
      const found = await lineBreaks(page, selector, needle);
      assert.ok(found.length > 0, `no ${selector} holds ${needle}`);
      assert.ok(
        found.some((breaks) => breaks.length > 0),
        'the URL is wider than the screen, so it does wrap',
      );
      // A break is fine after a separator or a space, or just before "?" or "&" (where Chromium breaks by itself).
      const midWord = found.flat().filter((pair) => !/^[/?&\s]|^.[?&]$/.test(pair));
      assert.equal(midWord, [], `breaks: ${JSON.stringify(found)}`);
      const wide = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      );
      assert.not.ok(wide, 'the page scrolls sideways');
    } finally {
      await page.close();
    }
  });
}

test.run();
