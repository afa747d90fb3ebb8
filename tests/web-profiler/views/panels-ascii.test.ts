import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderProfilePage } from '../../../web-profiler/views/profile-page.js';
import { okProfile, T0 } from '../../render/fixtures.js';

const test = suite('profile pages: their own separators and ellipses written as character references');

function profileWithCallsAndDumps() {
  const profile = okProfile();
  profile.collectors.http_client = {
    totalTime: 1,
    errors: 0,
    calls: [
      {
        client: 'undici',
        method: 'GET',
        url: 'http://127.0.0.1:9/slow',
        start: 0.5,
        duration: null,
        status: null,
        statusText: '',
        requestHeaders: {},
        responseHeaders: {},
        requestSize: 0,
        responseSize: null,
        error: null,
        timedOut: false,
        redacted: [],
      },
    ],
  };
  profile.collectors.dump = {
    dumps: [{ file: 'app.ts', line: 3, time: T0, value: { type: 'string', value: 'abc', length: 5000 } }],
  };
  return profile;
}

for (const panel of ['time', 'http_client', 'dump']) {
  test(`the ${panel} panel's page is ASCII, and reads the same`, () => {
    const html = renderProfilePage(profileWithCallsAndDumps(), { panel });
    assert.ok(/^[\x00-\x7f]*$/.test(html), `non-ASCII: ${JSON.stringify(html.match(/.{0,30}[^\x00-\x7f]/)?.[0])}`);
  });
}

test('the marks are still read as before: the listener row, the call still in flight, the cut string', () => {
  const profile = profileWithCallsAndDumps();
  assert.ok(
    load(renderProfilePage(profile, { panel: 'time' }))('main')
      .text()
      .includes('kernel.request \u00b7 RouterListener.onKernelRequest'),
  );
  const calls = load(renderProfilePage(profile, { panel: 'http_client' }))('main');
  assert.ok(calls.text().includes('undici \u00b7 started at'));
  assert.is(calls.find('tbody tr td').last().text(), '\u2026');
  assert.ok(
    load(renderProfilePage(profile, { panel: 'dump' }))('main pre')
      .text()
      .includes('"abc" \u2026(5000 characters)'),
  );
});

test.run();
