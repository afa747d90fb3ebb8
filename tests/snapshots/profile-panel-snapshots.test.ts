import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { matchSnapshot, reportUnusedSnapshots } from '../../snapshots/index.js';
import { fetchProfiled } from '../helpers/profiled-request.js';
import { fetchText, serveForTest, type TestServer } from '../helpers/serve.js';
import { stablePage } from './stable-page.js';

const test = suite('profile-panel snapshots: the log, events and time panels of GET /hello/world');
let t: TestServer;
let token: string;

test.before(async () => {
  t = await serveForTest();
  ({ token } = await fetchProfiled(t, '/hello/world'));
});
test.after(async () => {
  await t.stop();
  reportUnusedSnapshots();
});

async function panel(name: string): Promise<string> {
  const r = await fetchText(`${t.base}/_profiler/${token}?panel=${name}&type=request`);
  assert.is(r.status, 200, name);
  return r.body;
}

test('when the log panel is opened, then it matches its snapshot (router, event and app records in order)', async () => {
  const page = stablePage(await panel('log'));
  matchSnapshot('log panel', page.html, { normalisers: page.normalisers });
});

test('when the events panel is opened, then it matches its snapshot (kernel events in order, with their listeners)', async () => {
  const page = stablePage(await panel('events'));
  matchSnapshot('events panel', page.html, { normalisers: page.normalisers });
});

test('when the time panel is opened, then it matches its snapshot (the phases in order)', async () => {
  const page = stablePage(await panel('time'));
  matchSnapshot('time panel', page.html, { normalisers: page.normalisers });
});

test.run();
