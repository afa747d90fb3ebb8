import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import {
  asText,
  assertNothingInjected,
  assertProfileClean,
  hostileGet,
  pageText,
  profilePages,
  serveXssApp,
  xssCases,
  type ProfilePages,
  type XssServer,
} from './xss-harness.js';

const test = suite('XSS payloads in response body previews, route definitions and log channel filters are escaped');
let t: XssServer;
const baselines = new Map<string, ProfilePages>();
let channelBaseline: string;

test.before(async () => {
  t = await serveXssApp();
  for (const path of ['/answer/harmless', '/say/harmless', '/def/harmless'])
    baselines.set(path.split('/')[1], await profilePages(t.base, (await hostileGet(t, path)).token));
  const fail = await hostileGet(t, '/fail/harmless');
  baselines.set('fail', await profilePages(t.base, fail.token));
  channelBaseline = (await fetchText(`${t.base}/_profiler/${fail.token}?panel=log&channel=harmless`)).body;
});
test.after(async () => {
  await t.remove();
});

xssCases('xss-in-response-body-route-definition-and-log-channels').forEach(({ item: payload, index }) => {
  test(`when payload #${index} ${JSON.stringify(payload).slice(0, 60)} is a response body, a route default and a log channel, then no page injects it`, async () => {
    const answer = await hostileGet(t, `/answer/${index}`);
    const json = await profilePages(t.base, answer.token);
    const redacted: string[] = (await fetchProfileJson(t.base, answer.token)).collectors.request.redacted;
    if (redacted.length === 0) {
      assertProfileClean(json, baselines.get('answer')!, `payload #${index} in a JSON response`);
    } else {
      // A payload that looks secret (a query string with a token, a credential's shape) is redacted, and the request
      // panel lists where, one <code> each: its structure differs from the harmless page's by that list alone.
      for (const [panel, html] of json.panels)
        assertNothingInjected(
          html,
          panel === 'request' ? html : baselines.get('answer')!.panels.get(panel)!,
          `payload #${index} in a JSON response, ${panel} panel`,
        );
    }
    assert.ok(
      pageText(json.panels.get('request')!).includes(asText(JSON.stringify(payload).slice(1, -1))),
      'the JSON preview shows the payload as text',
    );

    const text = await profilePages(t.base, (await hostileGet(t, `/say/${index}`)).token);
    assertProfileClean(text, baselines.get('say')!, `payload #${index} in a text response`);

    const defined = await profilePages(t.base, (await hostileGet(t, `/def/${index}`)).token);
    assertProfileClean(defined, baselines.get('def')!, `payload #${index} in a route's defaults`);
    assert.ok(
      pageText(defined.panels.get('router')!).includes(asText(payload)),
      'the routing panel shows the default as text',
    );

    const fail = await hostileGet(t, `/fail/${index}`);
    const pages = await profilePages(t.base, fail.token);
    assertProfileClean(pages, baselines.get('fail')!, `payload #${index} as a log channel`);
    const channel = await fetchText(
      `${t.base}/_profiler/${fail.token}?panel=log&channel=${encodeURIComponent(payload)}`,
    );
    if (payload.includes('\0')) {
      assert.is(channel.status, 400, 'a NUL byte cannot travel in a URL: refused before anything reflects it');
      return;
    }
    assert.is(channel.status, 200);
    assertNothingInjected(channel.body, channelBaseline, `payload #${index}, the log filtered to its channel`);
    assert.ok(
      pageText(channel.body).includes('From a channel named by the payload.'),
      'the channel link selects that channel',
    );
  });
});

test.run();
