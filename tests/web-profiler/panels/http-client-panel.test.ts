import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../../core/profiler/profile.js';
import { renderProfileText } from '../../../panels/profile-text.js';
import { fetchProfileJson, fetchText } from '../../helpers/serve.js';
import { servePanelsApp, type PanelsServer } from './panels-app.js';

const test = suite(
  'the HTTP client panel: outgoing fetch, undici and node:http calls, attributed to their own request',
);
let t: PanelsServer;

test.before(async () => {
  t = await servePanelsApp();
});
test.after(async () => {
  await t.remove();
});

async function profiled(path: string): Promise<{ profile: Profile; body: string }> {
  const r = await fetchText(`${t.base}${path}`);
  assert.ok(r.headers['x-debug-token'], `${path} answered ${r.status} with a token`);
  return { profile: await fetchProfileJson(t.base, r.headers['x-debug-token']), body: r.body };
}

test('when a controller fetches once, then the profile holds the call: method, URL, status, duration, headers redacted', async () => {
  const { profile, body } = await profiled('/fetch/one');
  const data = profile.collectors.http_client!;
  assert.is(data.calls.length, 1);
  const [call] = data.calls;
  assert.is(call.method, 'GET');
  assert.is(call.status, 200);
  assert.is(call.client, 'undici');
  assert.ok(call.url.startsWith(`${t.upstream.url}/echo/one?`), call.url);
  assert.not.ok(call.url.includes('tok-one-secret'), 'the secret query value is redacted');
  assert.ok(call.url.includes('page=2'));
  assert.is(call.requestHeaders.authorization, 'Bearer [REDACTED]');
  assert.is(call.requestHeaders['x-request-id'], 'one');
  assert.is(call.responseHeaders['set-cookie'], '[REDACTED]');
  assert.is(call.responseSize, 'echo /echo/one?token=tok-one-secret&page=2'.length);
  assert.ok(typeof call.duration === 'number' && call.duration >= 0 && call.start >= 0);
  assert.ok(call.start + call.duration! <= profile.duration + 1, 'the call lies within the request');
  assert.ok(data.totalTime === call.duration);
  assert.ok(
    /1 HTTP call · [\d.]+ ms/.test(load(body)('#appkernel-toolbar').text()),
    'the toolbar counts the call and its time',
  );
});

test('when the HTTP client panel is opened, then the page, the terminal text and the JSON show the call from the stored profile', async () => {
  const { profile } = await profiled('/fetch/two');
  const page = await fetchText(`${t.base}/_profiler/${profile.token}?panel=http_client`);
  assert.is(page.status, 200);
  const $ = load(page.body);
  assert.ok($('main h2').text().includes('HTTP Client'));
  assert.ok($('main').text().includes(`${t.upstream.url}/echo/two?token=[REDACTED]&page=2`));
  assert.ok($('nav .on').text().includes('HTTP Client'));
  const text = renderProfileText(profile, 'http_client', { color: false });
  assert.match(text, /1 call, \d+\.\d ms in all/);
  assert.match(
    text,
    new RegExp(`GET +${t.upstream.url.replace(/[.]/g, '\\.')}/echo/two\\?token=\\[REDACTED\\]&page=2`),
  );
  assert.match(text, /authorization +Bearer \[REDACTED\]/);
});

test('when the app never reads a response body, then the call shows as answered (status, time to headers) with "body not read", not in flight', async () => {
  const { profile } = await profiled('/unread');
  const [call] = profile.collectors.http_client!.calls;
  assert.is(call.status, 200);
  assert.is(call.bodyUnread, true);
  assert.is(call.duration, null);
  assert.ok(typeof call.headersAfter === 'number' && call.headersAfter >= 0, String(call.headersAfter));
  assert.is(call.responseHeaders['content-type'], 'text/plain');
  const $ = load((await fetchText(`${t.base}/_profiler/${profile.token}?panel=http_client`)).body);
  assert.match($('main').text(), /answered after [\d.]+ ms \(headers\) · body not read/);
  assert.not.ok($('main').text().includes('in flight'));
  const text = renderProfileText(profile, 'http_client', { color: false });
  assert.match(text, /200 +GET +\S+\/unread +[\d.]+ ms, body not read/);
  assert.match(text, /Answered after [\d.]+ ms \(headers\); body not read/);
  assert.not.ok(text.includes('in flight'));
});

test('when the callee answers with a debug token, then the call links to its profile, in the page, the text and the JSON', async () => {
  const { profile, body } = await profiled('/callee');
  const token = (JSON.parse(body) as { token: string }).token;
  assert.match(token, /^[0-9a-f]{6}$/);
  const [call] = profile.collectors.http_client!.calls;
  assert.is(call.profile, token);
  const $ = load((await fetchText(`${t.base}/_profiler/${profile.token}?panel=http_client`)).body);
  const link = $(`main a[href="/_profiler/${token}"]`);
  assert.is(link.length, 1);
  assert.is((await fetchText(`${t.base}${link.attr('href')}`)).status, 200, "the link opens the callee's profile");
  assert.match(
    renderProfileText(profile, 'http_client', { color: false }),
    new RegExp(`Callee's profile /_profiler/${token}`),
  );
});

test('when a controller uses node:http, then its call is recorded as node:http', async () => {
  const { profile } = await profiled('/node-http');
  const calls = profile.collectors.http_client!.calls;
  assert.is(calls.length, 1);
  assert.is(calls[0].client, 'node:http');
  assert.is(calls[0].status, 200);
  assert.is(calls[0].url, `${t.upstream.url}/echo/node`);
});

test('when an outgoing call fails, then the panel shows the error', async () => {
  const { profile } = await profiled('/refused');
  const calls = profile.collectors.http_client!.calls;
  assert.is(calls.length, 1);
  assert.ok(calls[0].error, 'the error is recorded');
  assert.is(calls[0].status, null);
  assert.is(profile.collectors.http_client!.errors, 1);
});

test('when two requests fetch at once (both calls in flight together), then each profile shows only its own call', async () => {
  const [a, b] = await Promise.all([fetchText(`${t.base}/hold/aaa`), fetchText(`${t.base}/hold/bbb`)]);
  const [pa, pb]: Profile[] = await Promise.all([
    fetchProfileJson(t.base, a.headers['x-debug-token']),
    fetchProfileJson(t.base, b.headers['x-debug-token']),
  ]);
  assert.equal(
    pa.collectors.http_client!.calls.map((call) => call.url),
    [`${t.upstream.url}/hold/aaa`],
  );
  assert.equal(
    pb.collectors.http_client!.calls.map((call) => call.url),
    [`${t.upstream.url}/hold/bbb`],
  );
});

test('when the test process itself fetches outside any request, then no profile records it', async () => {
  const before = t.upstream.seen.length;
  await fetch(`${t.upstream.url}/echo/outside`).then((r) => r.text());
  assert.is(t.upstream.seen.length, before + 1);
  const { profile } = await profiled('/cache');
  assert.equal(profile.collectors.http_client!.calls, []);
});

test.run();
