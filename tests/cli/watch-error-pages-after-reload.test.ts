import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../helpers/cli.js';
import { jsonFieldWithin } from '../helpers/poll.js';
import { fetchText } from '../helpers/serve.js';

// What a debug error page keeps from one request to the next (explained misses, parsed frames, their
// HTML and JSON) must follow the app when watch mode reloads it: new routes, new source lines.

const MARGIN_MS = 5000;

const app = (
  version: string,
  route: string,
  blankLines: number,
) => `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
${'\n'.repeat(blankLines)}export const app = createApp()
  .get('version', '/version', () => ({ version: ${JSON.stringify(version)} }))
  .get('greet', ${JSON.stringify(route)}, () => ({ hi: true }))
  .get('boom', '/boom', () => {
    throw new Error('boom ${version}');
  });
`;

const versionWithin = (base: string, wanted: string) =>
  jsonFieldWithin(`${base}/version`, 'version', wanted, MARGIN_MS);

const json = { accept: 'application/json' };
const suggested = async (base: string): Promise<string[]> =>
  JSON.parse((await fetchText(`${base}/hel`, { headers: json })).body).routing.suggestions.map(
    (s: { path: string }) => s.path,
  );
const boomLine = async (base: string): Promise<number> => {
  const problem = JSON.parse((await fetchText(`${base}/boom`, { headers: json })).body);
  return problem.exceptions[0].trace.find((f: { file: string | null }) => f.file === 'app.config.ts').line;
};

const test = suite('debug error pages after watch mode reloads the app (real bin)');
let dir: string;
let appFile: string;
let serve: ServeProcess;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-watch-errors-'));
  appFile = join(dir, 'app.config.ts');
  writeFileSync(appFile, app('v1', '/help', 0));
  serve = await startServe(['--store', join(dir, 'store')], { cwd: dir });
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when a missed path was explained and the app is reloaded with other routes, then the same miss names the new routes', async () => {
  assert.equal(await suggested(serve.base), ['/help']);
  assert.equal(await suggested(serve.base), ['/help']);
  writeFileSync(appFile, app('v2', '/hello', 0));
  assert.is(await versionWithin(serve.base, 'v2'), 'v2', serve.output());
  assert.equal(await suggested(serve.base), ['/hello']);
});

test('when an error was shown and the app is reloaded with its lines moved, then its page and document show the new line', async () => {
  const before = await boomLine(serve.base);
  assert.is(await boomLine(serve.base), before);
  writeFileSync(appFile, app('v3', '/hello', 3));
  assert.is(await versionWithin(serve.base, 'v3'), 'v3', serve.output());
  assert.is(await boomLine(serve.base), before + 3);
  const page = (await fetchText(`${serve.base}/boom`)).body;
  assert.match(page, /boom v3/);
  assert.match(page, new RegExp(`app\\.config\\.ts</span> <span class="muted">line</span> ${before + 3}`));
});

test.run();
