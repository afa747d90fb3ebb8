import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../../helpers/serve.js';

// An inline arrow controller's frame read `<anonymous>` in the exception panel and the error page:
// it now carries the route's name, as the router panel's "Controller" line does.
const test = suite('an arrow-function controller is named after its route in stack frames');
let dir: string;
let t: TestServer;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-inline-controller-'));
  const appFile = join(dir, 'app.config.ts');
  writeFileSync(
    appFile,
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
function listItems(): never { throw new Error('named'); }
const showItem = () => { throw new Error('const'); };
export const app = createApp()
  .get('boom', '/boom', () => { throw new Error('inline'); })
  .get('later', '/later', async () => { await new Promise((r) => setTimeout(r, 1)); throw new Error('after await'); })
  .get('items', '/items', listItems)
  .get('item', '/items/{id}', showItem);
`,
  );
  t = await serveForTest({ appFile, root: dir });
});

test.after(async () => {
  await t.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function firstFrame(path: string): Promise<string> {
  const r = await fetchText(`${t.base}${path}`);
  assert.is(r.status, 500, path);
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  return profile.collectors.exception.chain[0].frames[0].function;
}

test('when an inline arrow controller throws, then its frame is named after the route, not <anonymous>', async () => {
  assert.is(await firstFrame('/boom'), 'boom');
  assert.is(await firstFrame('/later'), 'later');
});

test('when the controller is a named function or a const, then its frame keeps that name', async () => {
  assert.is(await firstFrame('/items'), 'listItems');
  assert.is(await firstFrame('/items/1'), 'showItem');
});

test('the error page shows the route-named frame too', async () => {
  const page = await fetchText(`${t.base}/boom`, { headers: { accept: 'text/html' } });
  assert.ok(page.body.includes('<span class="fn">boom</span>'), page.body.slice(0, 400));
  assert.not.ok(page.body.includes('&lt;anonymous&gt;'));
});

test.run();
