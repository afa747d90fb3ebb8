import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp } from '../helpers/cli.js';
import { serveDocExample, type ServedExample } from '../helpers/doc-example.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';

// docs/own-panel.md's example, run as written (only the package name points at this build), and the panel it promises.

const test = suite(
  'the example of docs/own-panel.md records a panel row, a span, a dump and an outgoing call (real bin)',
);
let example: ServedExample;

test.before(async () => {
  example = await serveDocExample('docs/own-panel.md');
});

test.after(() => example.stop());

test('when /products/7 is asked, then it answers the dumped value and its profile holds the row the page promises', async () => {
  const { serve, store: storeDir, dir } = example;
  const answer = await fetchText(`${serve.base}/products/7`);
  assert.is(answer.status, 200);
  assert.equal(JSON.parse(answer.body), { id: '7', stock: { id: '7', count: 3 } });
  const token = answer.headers['x-debug-token'];
  await fetchProfileJson(serve.base, token); // the server answers once its worker has stored the profile
  const store = ['--store', storeDir];
  const cache = await runApp(['profiles', 'show', token, '--panel', 'cache', ...store], { cwd: dir });
  assert.is(cache.code, 0, cache.stderr);
  assert.match(cache.stdout, /product:7\s+miss/);
  const time = await runApp(['profiles', 'show', token, '--panel', 'time', '--json', ...store], { cwd: dir });
  assert.match(time.stdout, /"lookup"/);
  assert.match(time.stdout, /"stock"/);
  const calls = await runApp(['profiles', 'show', token, '--panel', 'http_client', ...store], { cwd: dir });
  assert.match(calls.stdout, /\/stock\/7/);
  const dumps = await runApp(['profiles', 'show', token, '--panel', 'dump', ...store], { cwd: dir });
  assert.match(dumps.stdout, /count/);
});

test.run();
