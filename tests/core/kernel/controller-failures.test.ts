import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../../helpers/cli.js';
import { fetchText } from '../../helpers/serve.js';

const APP = `import { createApp, Response } from ${JSON.stringify(PACKAGE_ENTRY)};
class StockError extends Error { override name = 'StockError'; }
export const app = createApp()
  .get('ok', '/ok', () => 'ok')
  .get('rejects', '/rejects', async () => { await new Promise((r) => setTimeout(r, 1)); throw new Error('Saving failed.', { cause: new StockError('Disk full.') }); })
  .get('rejects-value', '/rejects-value', () => Promise.reject({ code: 42 }))
  .get('undefined', '/undefined', () => undefined)
  .get('function', '/function', () => function later() { return 1; })
  .get('symbol', '/symbol', () => Symbol('token'))
  .get('json-of-nothing', '/json-of-nothing', () => Response.json({ toJSON: () => undefined }))
  .get('bigint', '/bigint', () => ({ count: 1n }))
  .get('cycle', '/cycle', () => { const a: Record<string, unknown> = {}; a.self = a; return a; })
  .get('stray-promise', '/stray-promise', () => { void Promise.reject(new Error('Nobody waits for me.')); return { answered: true }; })
  .get('stray-timer', '/stray-timer', () => { setTimeout(() => { throw new Error('Thrown from a timer.'); }, 1); return { answered: true }; });
`;

const test = suite('whatever a controller does, the answer is an error page and the process lives on (real bin)');
let dir: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-controller-failures-'));
  writeFileSync(join(dir, 'app.config.ts'), APP);
  serve = await startServe(['--store', join(dir, 'store'), '--no-watch'], { cwd: dir });
});
test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when an async controller rejects with a cause, then 500 with both errors of the chain', async () => {
  const r = await fetchText(`${serve.base}/rejects`);
  assert.is(r.status, 500);
  const text = load(r.body).root().text();
  for (const part of ['Saving failed.', 'StockError', 'Disk full.', '[2/2]', '[1/2]'])
    assert.ok(text.includes(part), part);
});

test('when a controller rejects with a non-error value, then 500 that shows the value and names the route', async () => {
  const r = await fetchText(`${serve.base}/rejects-value`);
  assert.is(r.status, 500);
  assert.ok(
    load(r.body)
      .root()
      .text()
      .includes('A non-error value was thrown while answering route "rejects-value": {"code":42}'),
  );
});

test('when a controller returns a value JSON cannot encode (a BigInt, a cycle), then 500 that names the route and why', async () => {
  for (const [path, why] of [
    ['/bigint', 'Do not know how to serialize a BigInt'],
    ['/cycle', 'Converting circular structure to JSON'],
  ]) {
    const r = await fetchText(`${serve.base}${path}`);
    assert.is(r.status, 500, path);
    assert.ok(
      load(r.body)
        .root()
        .text()
        .includes(`The controller for route "${path.slice(1)}" returned a value JSON cannot encode: ${why}`),
      path,
    );
  }
});

test('when a controller returns undefined, then 500 that says what a controller must return', async () => {
  const r = await fetchText(`${serve.base}/undefined`);
  assert.is(r.status, 500);
  assert.match(load(r.body).root().text(), /must return a response, a string or a value to send as JSON/);
});

test('when a controller returns a function or a symbol, which JSON cannot send, then 500 that says what it returned, not an empty 200', async () => {
  for (const [path, what] of [
    ['/function', 'a function (later)'],
    ['/symbol', 'a symbol'],
  ]) {
    const r = await fetchText(`${serve.base}${path}`);
    assert.is(r.status, 500, path);
    assert.ok(
      load(r.body)
        .root()
        .text()
        .includes(`must return a response, a string or a value to send as JSON (${what} returned)`),
      path,
    );
  }
});

test('when Response.json() is given a value with no JSON form, then 500 that names it, not an empty 200', async () => {
  const r = await fetchText(`${serve.base}/json-of-nothing`);
  assert.is(r.status, 500);
  assert.ok(
    load(r.body)
      .root()
      .text()
      .includes('Response.json() cannot send a value whose toJSON() returns undefined: it has no JSON form.'),
  );
});

test('when a controller leaves a rejected promise or a throwing timer behind, then the server reports it and keeps serving', async () => {
  for (const path of ['/stray-promise', '/stray-timer'])
    assert.equal(JSON.parse((await fetchText(`${serve.base}${path}`)).body), { answered: true }, path);
  const end = Date.now() + 3000;
  while (
    !(/Thrown from a timer/.test(serve.output()) && /Nobody waits for me/.test(serve.output())) &&
    Date.now() < end
  )
    await new Promise((resolve) => setTimeout(resolve, 20));
  assert.match(
    serve.output(),
    /Unhandled promise rejection outside any request, the server keeps running: Error: Nobody waits for me\./,
  );
  assert.match(
    serve.output(),
    /Uncaught exception outside any request, the server keeps running: Error: Thrown from a timer\./,
  );
  assert.is(serve.child.exitCode, null, 'the process is alive');
  assert.is((await fetchText(`${serve.base}/ok`)).status, 200);
});

test.run();
