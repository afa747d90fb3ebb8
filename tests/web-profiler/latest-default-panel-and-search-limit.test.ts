import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILT_IN_PANEL_NAMES } from '../../panels/registry.js';
import { load } from 'cheerio';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

// The profiler pages: `/_profiler/latest` is the newest profile; no `panel` means `exception` when there is
// one, else `request`; `type=request` is accepted; the search without a limit shows 10; the pages are
// self-contained and readable without JavaScript. Over real HTTP against the demo app.

const test = suite(
  'the profiler pages over HTTP: latest, the default panel, the default search limit, self-contained pages',
);
let t: TestServer;

test.before(async () => {
  t = await serveForTest();
});
test.after(async () => {
  await t.stop();
});

const chosenPanel = (html: string) => /panel=(\w+)/.exec(load(html)('ul.menu a.on').attr('href') ?? '')?.[1];

test('when /_profiler/latest and /_profiler/latest.json are asked for, then both are the newest stored profile', async () => {
  await fetchProfiled(t, '/robots.txt');
  const { token } = await fetchProfiled(t, '/hello/newest');
  const json = await fetchText(`${t.base}/_profiler/latest.json`);
  assert.is(json.status, 200);
  assert.match(json.headers['content-type'], /application\/json/);
  const profile = JSON.parse(json.body);
  assert.is(profile.token, token);
  assert.is(profile.url, `${t.base}/hello/newest`);
  // That JSON request was profiled too (after its response): a new request is now the newest.
  const next = await fetchProfiled(t, '/hello/newer');
  const page = await fetchText(`${t.base}/_profiler/latest`);
  assert.is(page.status, 200);
  const $ = load(page.body);
  assert.is($('header.summary h1').text(), `${t.base}/hello/newer`);
  assert.ok($('header.summary').text().includes(next.token), 'the summary names the newest token');
});

test("when a profiler address ends with a slash, or is Symfony's search address, then a 301 to the address it means, the query kept", async () => {
  const { token } = await fetchProfiled(t, '/hello/slash');
  const cases: [string, string][] = [
    [`/_profiler/${token}/?panel=log`, `/_profiler/${token}?panel=log`],
    ['/_profiler/search/?limit=50', '/_profiler/search?limit=50'],
    ['/_profiler/latest/', '/_profiler/latest'],
    ['/_profiler/empty/search/results?limit=10', '/_profiler/search?limit=10'],
    [`/_profiler/${token}/search/results?url=%2Fhello`, '/_profiler/search?url=%2Fhello'],
  ];
  for (const [from, to] of cases) {
    const r = await fetchText(`${t.base}${from}`);
    assert.is(r.status, 301, from);
    assert.is(r.headers.location, `${t.base}${to}`, from);
  }
  const unknown = await fetchText(`${t.base}/_profiler/abc/`);
  assert.is(unknown.status, 404);
  assert.ok(load(unknown.body).root().text().includes('Token "abc/" not found.'));
});

test('when no panel is given, then the exception panel for a profile with an exception, else the request panel', async () => {
  const notFound = await fetchProfiled(t, '/robots.txt');
  const hello = await fetchProfiled(t, '/hello/world');
  const a = await fetchText(`${t.base}/_profiler/${notFound.token}`);
  assert.is(a.status, 200);
  assert.is(chosenPanel(a.body), 'exception');
  assert.ok(load(a.body).root().text().includes('[2/2]'), 'the exception panel with its numbered traces');
  const b = await fetchText(`${t.base}/_profiler/${hello.token}`);
  assert.is(b.status, 200);
  assert.is(chosenPanel(b.body), 'request');
});

test('when type=request is given alone or with a panel, then it changes nothing', async () => {
  const { token } = await fetchProfiled(t, '/robots.txt');
  assert.is(chosenPanel((await fetchText(`${t.base}/_profiler/${token}?type=request`)).body), 'exception');
  const withPanel = await fetchText(`${t.base}/_profiler/${token}?panel=log&type=request`);
  assert.is(withPanel.status, 200);
  assert.is(chosenPanel(withPanel.body), 'log');
  const alias = await fetchText(`${t.base}/_profiler/${token}?panel=logger&type=request`);
  assert.is(alias.status, 200);
  assert.is(chosenPanel(alias.body), 'log');
});

test('when a profile has no exception, then its exception panel says so', async () => {
  const { token } = await fetchProfiled(t, '/hello/calm');
  const r = await fetchText(`${t.base}/_profiler/${token}?panel=exception&type=request`);
  assert.is(r.status, 200);
  assert.ok(load(r.body).root().text().includes('No exception was thrown and caught during the request.'));
});

test('when the search is asked for without a limit (or with one not offered), then at most 10 rows, newest first; limit=50 shows more', async () => {
  const tokens: string[] = [];
  for (let i = 0; i < 14; i++) tokens.push((await fetchProfiled(t, `/hello/row${i}`)).token);
  for (const target of ['/_profiler/search', '/_profiler/search?limit=7', '/_profiler/search?limit=']) {
    const page = await fetchText(`${t.base}${target}`);
    assert.is(page.status, target.endsWith('=7') ? 400 : 200, target);
    const $ = load(page.body);
    assert.is($('table tbody tr').length, 10, target);
    assert.match($('h2').text(), /^10 of \d+ results found$/, target);
    const notes = $('.filter-notes').text();
    assert.is(notes, target.endsWith('=7') ? 'limit "7" was not applied: 10, 50, 100 are offered.' : '', target);
  }
  const bad = load(
    (await fetchText(`${t.base}/_profiler/search?status=abc&since=garbage&until=2020-01-01T00:00`)).body,
  );
  assert.is(
    bad('.filter-notes').text(),
    'status "abc" was not applied: give an exact status (404) or a class (4xx).' +
      ' since "garbage" was not applied: give a date and time (2026-11-22T14:00, UTC unless a zone is given).',
  );
  assert.match(bad('h2').text(), /^No results found$/, 'until 2020 still applies');
  for (const target of ['?offset=1e24', '?offset=-1', '?since=-1', '?until=99999-01-01', '?limit=1e24']) {
    const page = await fetchText(`${t.base}/_profiler/search${target}`);
    assert.is(page.status, 400, `${target}: a value out of range is a 400 whose page says why`);
    assert.match(load(page.body)('.filter-notes').text(), /was not applied: /, target);
  }
  const reversed = load(
    (await fetchText(`${t.base}/_profiler/search?since=2026-01-02T00:00&until=2026-01-01T00:00`)).body,
  );
  assert.is(reversed('.filter-notes').text(), '"since" is later than "until": no profile can match.');
  const wide = await fetchText(`${t.base}/_profiler/search?limit=50&url=%2Fhello%2Frow`);
  const $ = load(wide.body);
  assert.is($('table tbody tr').length, 14);
  const listed = $('table tbody tr')
    .map((_, tr) => $(tr).find('td').eq(5).text().trim())
    .get();
  assert.equal([...listed].sort(), [...tokens].sort(), 'the Token column');
});

test('when requests follow one another within the same millisecond, then the list still shows them newest first', async () => {
  const tokens: string[] = [];
  // One after the other: each starts after the previous answer arrived, so the order is not in doubt.
  for (let i = 0; i < 40; i++) tokens.push((await fetchText(`${t.base}/hello/burst${i}`)).headers['x-debug-token']);
  await new Promise((resolve) => setTimeout(resolve, 20));
  await t.server.storage!.flush();
  const rows = await t.server.storage!.search({ url: '/hello/burst', limit: 100 });
  assert.equal(
    rows.map((row) => row.token),
    [...tokens].reverse(),
    'newest first',
  );
  const page = load((await fetchText(`${t.base}/_profiler/search?limit=50&url=%2Fhello%2Fburst`)).body);
  assert.equal(
    page('table tbody tr')
      .map((_, tr) => page(tr).find('td').eq(5).text().trim())
      .get(),
    [...tokens].reverse(),
    'the search page, newest first',
  );
});

test("when the profiler pages are fetched, then each is self-contained: inline CSS, no external asset, no script but the search page's own", async () => {
  const { token } = await fetchProfiled(t, '/robots.txt');
  const pages = [
    '/_profiler/search?limit=10',
    ...BUILT_IN_PANEL_NAMES.map((p) => `/_profiler/${token}?panel=${p}&type=request`),
  ];
  for (const path of pages) {
    const r = await fetchText(`${t.base}${path}`);
    assert.is(r.status, 200, path);
    const $ = load(r.body);
    assert.ok($('style').length >= 1, `${path} has inline CSS`);
    const scripts = $('script')
      .map((_, el) => $(el).attr('src') ?? 'inline')
      .get();
    assert.equal(
      scripts,
      path.startsWith('/_profiler/search') ? ['/_profiler/live-search.js'] : [],
      `${path}: only the search page has a script, a same-origin file`,
    );
    assert.is($('link[rel="stylesheet"]').length, 0, `${path} loads no stylesheet`);
    const external = $('[src], link[href]')
      .map((_, el) => $(el).attr('src') ?? $(el).attr('href'))
      .get()
      .filter((url) => !url.startsWith('data:') && url !== '/_profiler/live-search.js');
    assert.equal(external, [], `${path} loads no external asset`);
  }
});

test.run();
