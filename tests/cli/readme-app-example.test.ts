import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ServeProcess } from '../helpers/cli.js';
import { serveDocExample, type ServedExample } from '../helpers/doc-example.js';
import { fetchText } from '../helpers/serve.js';

// The app API page's example (docs/app-api.md, linked from the README), run as written (only the package name points at this build).

const test = suite('the app API example of docs/app-api.md works as shown (real bin)');
let example: ServedExample;
let serve: ServeProcess;

test.before(async () => {
  example = await serveDocExample('docs/app-api.md');
  serve = example.serve;
});

test.after(() => example.stop());

test('the guard example guards a route that exists: 401 without Authorization, 200 with it', async () => {
  const refused = await fetchText(`${serve.base}/admin`);
  assert.is(refused.status, 401);
  assert.match(refused.body, /Sign in first\./);
  assert.is((await fetchText(`${serve.base}/admin`, { headers: { authorization: 'Bearer t' } })).status, 200);
});

test('the other routes answer as the comments say', async () => {
  assert.match((await fetchText(`${serve.base}/`)).body, /<h1>Home<\/h1>/);
  assert.equal(JSON.parse((await fetchText(`${serve.base}/posts/7`)).body), { id: 7 });
  assert.is((await fetchText(`${serve.base}/pages`)).body, 'page 1');
  const posted = await fetchText(`${serve.base}/contact`, { method: 'POST', body: '{"email":"a@b.c"}' });
  assert.is(posted.status, 303);
  assert.is(
    (await fetchText(`${serve.base}/contact`, { method: 'POST', body: '{', headers: { accept: 'application/json' } }))
      .status,
    400,
  );
});

test.run();
