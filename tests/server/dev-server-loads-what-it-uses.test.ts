import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runNode } from '../helpers/cli.js';

// Every process that serves (a real `app serve`, a test serving in its own process) imports the dev
// server: the app loader's TypeScript support, the watcher, the static files' sender and the source
// highlighter are loaded when used, not with it. The module hook logs what the process resolves.

const HOOK = pathToFileURL(resolve(process.cwd(), 'dist/tests/helpers/log-loaded-modules.js')).href;
const DEV_SERVER = pathToFileURL(resolve(process.cwd(), 'dist/server/dev-server.js')).href;
const LOADED_WHEN_USED = ['tsx', 'esbuild', 'chokidar', '@fastify/send', 'highlight.js'];

const test = suite(
  'the dev server serving the demo app without watching loads no app loader, watcher, sender or highlighter',
);
let dir: string;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-dev-server-modules-'));
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `script` (an ES module) in a node process with the hook preloaded: its exit code, output and the URLs it resolved. */
async function runLogged(script: string): Promise<{ code: number | null; output: string; urls: string[] }> {
  const log = join(dir, 'loaded.log');
  const { code, stdout, stderr } = await runNode([`--import=${HOOK}`, '--input-type=module', '-e', script], {
    env: { APPKERNEL_TEST_LOADED_LOG: log },
  });
  return { code, output: stdout + stderr, urls: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

test('when it answers a request of the demo app, then none of them is loaded', async () => {
  const { code, output, urls } = await runLogged(`
    const { startDevServer } = await import(${JSON.stringify(DEV_SERVER)});
    const server = await startDevServer({
      port: 0, host: '127.0.0.1', appFile: null, root: ${JSON.stringify(dir)},
      storeDir: ${JSON.stringify(join(dir, 'store'))}, debug: true, watch: false,
      logLevel: 'EMERGENCY', print: () => {}, editor: null,
    });
    const response = await fetch(server.url + '/hello/ann');
    await response.text();
    if (response.status !== 200) throw new Error('answered ' + response.status);
    await server.close();
  `);
  assert.is(code, 0, output);
  // The log saw the server and its app loader: an empty log would pass for nothing.
  for (const module of ['/dist/server/dev-server.js', '/dist/server/load-app.js', '/dist/server/static-files.js'])
    assert.ok(
      urls.some((url) => url.endsWith(module)),
      `${module} in:\n${urls.join('\n')}`,
    );
  assert.equal(
    urls.filter((url) => LOADED_WHEN_USED.some((name) => url.includes(`/node_modules/${name}/`))),
    [],
  );
});

test.run();
