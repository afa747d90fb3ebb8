import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { serverAndChromium } from './chromium.js';

const test = suite(
  'the demo 500 in headless Chromium at 1400 and 390 px: event records folded on the error page, linked from the exception panel, each code line once',
);
const opened = serverAndChromium(test);
let token: string;

test.before(async () => {
  token = (await fetchProfiled(opened.t, '/boom')).token;
});

async function visit(width: number, path: string): Promise<Page> {
  const page = await opened.browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`${opened.t.base}${path}`);
  return page;
}

/** The log rows a reader sees (a closed <details> keeps its rows laid out but hidden: checkVisibility, not offsetParent): their channel cells. */
const visibleChannels = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('table.log tbody tr')]
      .filter((tr) => (tr as HTMLElement).checkVisibility())
      .map((tr) => tr.children[1]?.textContent ?? ''),
  );

for (const width of [1400, 390]) {
  test(`at ${width} px, the error page's log shows no event record until "4 event records" is opened`, async () => {
    const page = await visit(width, '/boom');
    assert.equal(await visibleChannels(page), ['request', 'request']);
    const summary = page.locator('details.events-folded > summary');
    assert.ok(await summary.isVisible());
    assert.match(await summary.innerText(), /^4 event records/);
    await summary.click();
    const shown = await visibleChannels(page);
    assert.is(shown.filter((c) => c === 'event').length, 4, shown.join(','));
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      'no horizontal page scroll',
    );
    await page.close();
  });

  test(`at ${width} px, each line of the demo's code shows once on the error page`, async () => {
    const page = await visit(width, '/boom');
    const numbers = await page.evaluate(() =>
      [...document.querySelectorAll('pre.code > span > i')].map((i) => i.textContent!.trim()),
    );
    assert.ok(numbers.includes('6') && numbers.includes('10'), numbers.join(' '));
    assert.equal(numbers, [...new Set(numbers)], numbers.join(' '));
    assert.ok(await page.getByText('code shown above').isVisible());
    await page.close();
  });

  test(`at ${width} px, the exception panel shows no event record and its "8 event records" link opens the log panel listing them`, async () => {
    const page = await visit(width, `/_profiler/${token}?panel=exception`);
    assert.is((await visibleChannels(page)).filter((c) => c === 'event').length, 0);
    const link = page.locator('main .events-folded a');
    assert.ok(await link.isVisible());
    assert.is(await link.innerText(), '8 event records');
    await link.click();
    await page.waitForURL(/panel=log/);
    assert.is((await visibleChannels(page)).filter((c) => c === 'event').length, 8);
    await page.close();
  });
}

test.run();
