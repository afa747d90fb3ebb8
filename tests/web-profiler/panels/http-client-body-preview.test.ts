import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../../core/profiler/profile.js';
import { RESPONSE_BODY_CAP } from '../../../core/profiler/request-collector.js';
import { formatBytes } from '../../../render/format.js';
import { join } from 'node:path';
import { runAppInProcess, startServe } from '../../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../../helpers/serve.js';
import { ACCOUNT, LONG, servePanelsApp, type PanelsServer } from './panels-app.js';

// The HTTP Client panel previews the bodies of the answers the app reads, under the size and
// redaction rules of the request panel's response preview, in the page, the terminal and the JSON.

const test = suite(
  "the HTTP client panel previews the answers the app read, cut and redacted like the request panel's",
);
let t: PanelsServer;

test.before(async () => {
  t = await servePanelsApp();
});
test.after(async () => {
  await t.remove();
});

async function profiled(path: string): Promise<Profile> {
  const r = await fetchText(`${t.base}${path}`);
  assert.is(r.status, 200, r.body);
  return fetchProfileJson(t.base, r.headers['x-debug-token']);
}

test('when the app reads a JSON answer with a password, then the JSON profile holds the answer with only that value redacted', async () => {
  const profile = await profiled('/fetch-json/account');
  const [call] = profile.collectors.http_client!.calls;
  assert.equal(call.body, {
    size: ACCOUNT.length,
    contentType: 'application/json',
    truncated: false,
    text: '{"user":"ann","password":"[REDACTED]","plan":"gold"}',
  });
  assert.ok(call.redacted.includes('response body password'), call.redacted.join(', '));
  assert.not.ok(JSON.stringify(profile).includes('pw-upstream-secret'), 'the secret is nowhere in the profile');
});

test('when the preview is opened, then the page shows it pretty-printed and `profiles show --panel http_client` prints it', async () => {
  const profile = await profiled('/fetch-json/account');
  const $ = load((await fetchText(`${t.base}/_profiler/${profile.token}?panel=http_client`)).body);
  const heading = $('main h4').filter((_, h) => $(h).text() === 'Response body');
  assert.is(heading.length, 1);
  assert.ok(
    heading
      .next()
      .text()
      .startsWith(`${formatBytes(ACCOUNT.length)}, application/json`),
    heading.next().text(),
  );
  assert.match($('main pre.body').text(), /"password": "\[REDACTED\]",\n\s+"plan": "gold"/);
  const shown = await runAppInProcess(
    ['profiles', 'show', profile.token, '--panel', 'http_client', '--store', t.storeDir],
    {
      env: { COLUMNS: '100' },
    },
  );
  assert.is(shown.code, 0, shown.stderr);
  assert.match(
    shown.stdout,
    new RegExp(
      `^Response body\\napplication/json, ${ACCOUNT.length} bytes\\n` +
        /\{"user":"ann","password":"\[REDACTED\]","plan":"gold"\}$/.source,
      'm',
    ),
  );
  assert.not.ok(shown.stdout.includes('pw-upstream-secret'));
});

test("when the answer is longer than the preview's cap, then its first bytes are kept and it is marked truncated, with its whole size", async () => {
  const [call] = (await profiled('/fetch-json/long')).collectors.http_client!.calls;
  assert.ok(LONG.length > RESPONSE_BODY_CAP);
  assert.is(call.body!.size, LONG.length);
  assert.is(call.body!.truncated, true);
  assert.is(call.body!.text, LONG.slice(0, RESPONSE_BODY_CAP));
  assert.is(call.responseSize, LONG.length, 'the size is the bytes received when no Content-Length says it');
});

test('when the answer is not text, or its body was never read, then no preview is kept', async () => {
  const [picture] = (await profiled('/fetch-json/picture')).collectors.http_client!.calls;
  assert.is(picture.status, 200);
  assert.is(picture.body, null);
  const [unread] = (await profiled('/unread')).collectors.http_client!.calls;
  assert.is(unread.bodyUnread, true);
  assert.is(unread.body, null);
});

test('when the answer echoes a secret the request sent in its URL, then the preview is scrubbed of it as the URL is', async () => {
  const [call] = (await profiled('/fetch/one')).collectors.http_client!.calls;
  assert.is(call.body!.text, 'echo /echo/one?token=[REDACTED]&page=2');
});

test("when `app serve` runs the app (fetch is Node's own undici there, not the undici package this test loads), then the answer is previewed too", async () => {
  const serve = await startServe(
    ['--app', join(t.dir, 'app.config.mjs'), '--store', join(t.dir, 'store'), '--no-watch'],
    { cwd: t.dir },
  );
  try {
    const r = await fetchText(`${serve.base}/fetch-json/account`);
    const [call] = (await fetchProfileJson(serve.base, r.headers['x-debug-token'])).collectors.http_client.calls;
    assert.is(call.body.text, '{"user":"ann","password":"[REDACTED]","plan":"gold"}');
  } finally {
    await serve.stop();
  }
});

test.run();
