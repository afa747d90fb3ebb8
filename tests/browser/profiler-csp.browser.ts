import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { serverAndChromium } from './chromium.js';

const test = suite('the profiler pages under their Content-Security-Policy, in headless Chromium');
const opened = serverAndChromium(test);
let token: string;

test.before(async () => {
  token = (await fetchText(`${opened.t.base}/robots.txt`)).headers['x-debug-token'];
  await fetchProfileJson(opened.t.base, token);
});

interface Visit {
  violations: string[];
  /** the page's body background and the widest timeline bar, in px (0 without bars) */
  background: string;
  widestBar: number;
}

/** Opens `path` and reports CSP violations, whether from the securitypolicyviolation event or the console. */
async function visit(path: string, status: number): Promise<Visit> {
  const page = await opened.browser.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  // Init scripts and evaluate() go through the DevTools protocol, which the page's CSP does not govern.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto(`${opened.t.base}${path}`);
  assert.is(response?.status(), status, path);
  assert.match(response?.headers()['content-security-policy'] ?? '', /default-src 'none'/, `${path} has no CSP`);
  const seen = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const widestBar = await page.evaluate(() =>
    Math.max(0, ...[...document.querySelectorAll('.bar')].map((bar) => bar.getBoundingClientRect().width)),
  );
  await page.close();
  return { violations: [...violations, ...seen], background, widestBar };
}

const PAGES: [string, string, number][] = [
  ['the search page', '/_profiler/search?limit=10', 200],
  ['the request panel', '/_profiler/TOKEN?panel=request', 200],
  ['the exception panel', '/_profiler/TOKEN?panel=exception&type=request', 200],
  ['the log panel', '/_profiler/TOKEN?panel=log', 200],
  ['the events panel', '/_profiler/TOKEN?panel=events', 200],
  ['the routing panel', '/_profiler/TOKEN?panel=router', 200],
  ['the security panel', '/_profiler/TOKEN?panel=security', 200],
  ['an unknown token', '/_profiler/abcdef', 404],
];

for (const [what, path, status] of PAGES) {
  test(`when ${what} is opened, then no CSP violation is reported and its stylesheet applies`, async () => {
    const r = await visit(path.replace('TOKEN', token), status);
    assert.equal(r.violations, []);
    assert.is(r.background, 'rgb(243, 244, 246)', 'the inline <style> did not apply');
  });
}

test('when the performance panel is opened, then its timeline bars take their width from their style attributes, without violation', async () => {
  const r = await visit(`/_profiler/${token}?panel=time`, 200);
  assert.equal(r.violations, []);
  assert.ok(r.widestBar > 20, `the widest bar is ${r.widestBar}px: its style attribute was refused`);
});

test('when the search form is submitted, then form-action lets it reach the search results', async () => {
  const page = await opened.browser.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(`${opened.t.base}/_profiler/search?limit=10`);
  await Promise.all([
    page.waitForURL(/\/_profiler\/search\?/),
    page.locator('form.search button, form.search [type=submit]').first().click(),
  ]);
  assert.ok(await page.getByText('Profile Search').first().isVisible());
  assert.equal(violations, []);
  await page.close();
});

test.run();
