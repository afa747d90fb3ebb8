import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, startServe, type ServeProcess, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { waitFor } from '../helpers/poll.js';

// Required: `app replay --diff` "compares the old and new profiles: status, route, exception classes and
// messages, log error count, response size, and the body's structure (the snapshot harness's normalised
// outline once it exists)". The harness exists (snapshots/outline.ts). Here the status, route, title and
// content type stay the same and only the page's structure changes: --diff must exit 1 and say so.

const page = (body: string) =>
  `<!DOCTYPE html><html><head><meta charset="UTF-8"><title>Orders</title></head><body>${body}</body></html>`;

const appSource = (html: string, json: string) => `import { createApp, Response } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('orders', '/orders', () => Response.html(${JSON.stringify(html)}))
  .get('api', '/api/orders', () => new Response(${JSON.stringify(json)}, 200, { 'Content-Type': 'application/json' }));
`;

const test = suite("app replay --diff compares the body's structure (an app file)");
let dir: string;
let store: string;
let appFile: string;
let serve: ServeProcess;
let htmlToken: string;
let jsonToken: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-replay-outline-'));
  store = join(dir, 'store');
  appFile = join(dir, 'app.config.ts');
  writeFileSync(
    appFile,
    appSource(page('<h1>Orders</h1><table><tr><th>Id</th></tr><tr><td>1</td></tr></table>'), '{"orders":[{"id":1}]}'),
  );
  serve = await startServe(['--store', store], { cwd: dir });
  htmlToken = (await fetchText(`${serve.base}/orders`)).headers['x-debug-token'];
  jsonToken = (await fetchText(`${serve.base}/api/orders`)).headers['x-debug-token'];
  await fetchProfileJson(serve.base, htmlToken);
  await fetchProfileJson(serve.base, jsonToken);
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when nothing changed, then --diff exits 0 for the page and for the JSON', async () => {
  for (const token of [htmlToken, jsonToken]) {
    const r = await runApp(['replay', token, '--diff', '--store', store]);
    assert.is(r.code, 0, r.stdout + r.stderr);
  }
});

test('when the page keeps its status, route, title and type but its structure changes, then --diff exits 1 and names the body', async () => {
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Same title and type; the table became a list, and no element of the old body is left.
  writeFileSync(
    appFile,
    appSource(page('<h1>Orders</h1><ul><li>order 1</li></ul><p>Nothing else.</p>'), '{"orders":[{"id":1}]}'),
  );
  assert.ok(
    await waitFor(async () => (await fetchText(`${serve.base}/orders`)).body.includes('<ul>'), 5000),
    serve.output(),
  );
  const r = await runAppInProcess(['replay', htmlToken, '--diff', '--store', store]);
  assert.is(r.code, 1, `a changed page structure passed as the same behaviour:\n${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /body|outline|structure/i);
});

test('when the JSON keeps its size and type but its keys change, then --diff exits 1', async () => {
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Same byte length as {"orders":[{"id":1}]}; another shape.
  writeFileSync(
    appFile,
    appSource(page('<h1>Orders</h1><ul><li>order 1</li></ul><p>Nothing else.</p>'), '{"errors":[{"no":1}]}'),
  );
  assert.ok(
    await waitFor(async () => (await fetchText(`${serve.base}/api/orders`)).body.includes('errors'), 5000),
    serve.output(),
  );
  const r = await runAppInProcess(['replay', jsonToken, '--diff', '--store', store]);
  assert.is(r.code, 1, `a changed JSON structure passed as the same behaviour:\n${r.stdout}${r.stderr}`);
});

test.run();
