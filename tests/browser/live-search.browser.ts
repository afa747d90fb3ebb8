import { get, type IncomingMessage } from 'node:http';
import type { Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { waitFor } from '../helpers/poll.js';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { serverAndChromium } from './chromium.js';

const test = suite(
  'the live search page in headless Chromium: new profiles appear at the top, a button pauses them, no CSP violation',
);
const opened = serverAndChromium(test);

/** Waits on the store itself: polling the JSON view would store 404 profiles of its own. */
async function stored(path: string): Promise<string> {
  return (await fetchProfiled(opened.t, path)).token;
}

const rowTokens = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll('main tbody tr td:nth-child(6)')].map((cell) => cell.textContent));
const pageHas = async (page: Page, token: string) => (await rowTokens(page)).includes(token);

test('when profiles are stored while the search page is open, then their rows appear on top; paused, they wait for Resume', async () => {
  const page = await opened.browser.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.log(`Refused to ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const response = await page.goto(`${opened.t.base}/_profiler/search?limit=10&url=/live`);
  assert.is(response?.status(), 200);
  assert.ok(await waitFor(async () => (await page.textContent('#live-state')) === 'live', 10_000), 'the stream opened');

  const first = await stored('/live/one');
  assert.ok(await waitFor(() => pageHas(page, first), 10_000), 'the new profile shows without a reload');
  assert.is((await rowTokens(page))[0], first);
  assert.is(await page.textContent('main h2'), '1 results found');
  const href = await page.getAttribute('main tbody tr:first-child td:nth-child(6) a', 'href');
  assert.is(href, `/_profiler/${first}`);
  await stored('/elsewhere');

  await page.click('#live-toggle');
  assert.is(await page.textContent('#live-state'), 'paused');
  assert.is(await page.textContent('#live-toggle'), 'Resume live updates');
  // A second listener tells when the event has been sent: the paused page must not show it.
  const watcher = await new Promise<IncomingMessage>((resolve, reject) =>
    get(`${opened.t.base}/_profiler/live?url=/live`, resolve).on('error', reject),
  );
  let seen = '';
  watcher.setEncoding('utf8');
  watcher.on('data', (chunk: string) => (seen += chunk));
  assert.ok(await waitFor(() => seen.includes('retry:'), 5_000));
  const second = await stored('/live/two');
  assert.ok(await waitFor(() => seen.includes(second), 10_000));
  // The page's stream polls on its own timer: give it the same deadline, then it must still be absent.
  await waitFor(() => pageHas(page, second), 1_500);
  assert.not.ok(await pageHas(page, second), 'paused: the row waits');
  watcher.destroy();

  await page.click('#live-toggle');
  assert.ok(await waitFor(() => pageHas(page, second), 5_000), 'resumed: the waiting row shows');
  assert.equal((await rowTokens(page)).slice(0, 2), [second, first]);
  assert.equal(violations, []);
  await page.close();
});

for (const path of ['/alike/row', `/alike/${'long'.repeat(60)}`]) {
  test(`when a profile of ${path.slice(0, 20)} (${path.length} characters) arrives live, then its row reads as the same row does after a reload`, async () => {
    const page = await opened.browser.newPage();
    await page.goto(`${opened.t.base}/_profiler/search?limit=10&url=/alike`);
    assert.ok(
      await waitFor(async () => (await page.textContent('#live-state')) === 'live', 10_000),
      'the stream opened',
    );
    const token = await stored(path);
    assert.ok(await waitFor(() => pageHas(page, token), 10_000));
    const cells = () =>
      page.evaluate(() => [...document.querySelectorAll('main tbody tr:first-child td')].map((td) => td.innerHTML));
    const live = await cells();
    await page.reload();
    assert.equal(live, await cells());
    await page.close();
  });
}

test('when the search ends at an Until in the past, then a profile stored later does not join its results', async () => {
  const page = await opened.browser.newPage();
  const until = new Date(Date.now() - 60_000).toISOString().slice(0, 19);
  await page.goto(`${opened.t.base}/_profiler/search?limit=10&url=/bounded&until=${until}`);
  assert.ok(await waitFor(async () => (await page.textContent('#live-state')) === 'live', 10_000), 'the stream opened');
  const before = await page.textContent('main h2');
  // A stream without the page's bound tells when the profile has been sent.
  const watcher = await new Promise<IncomingMessage>((resolve, reject) =>
    get(`${opened.t.base}/_profiler/live?url=/bounded`, resolve).on('error', reject),
  );
  let seen = '';
  watcher.setEncoding('utf8');
  watcher.on('data', (chunk: string) => (seen += chunk));
  assert.ok(await waitFor(() => seen.includes('retry:'), 5_000));
  const later = await stored('/bounded/later');
  assert.ok(await waitFor(() => seen.includes(later), 10_000));
  await waitFor(() => pageHas(page, later), 1_500);
  assert.not.ok(await pageHas(page, later), 'a profile after Until is not a result');
  assert.is(await page.textContent('main h2'), before);
  watcher.destroy();
  await page.close();
});

test.run();
