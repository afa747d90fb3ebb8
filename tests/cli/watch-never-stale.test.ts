import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';
import { outputShows, waitFor } from '../helpers/poll.js';

// Each edit is followed by one request only, sent as soon as the "Reloaded" line for it is printed:
// that request must already answer the new code. The same runs in a folder inside appkernel's own
// checkout (where `npm start` finds an app.config.ts and the app imports 'appkernel' by name).

const MARGIN_MS = 5000;

let entry = 'appkernel';
const appSource = (home: string, routes: string[]) => `import { createApp } from ${JSON.stringify(entry)};
import { label } from './lib/store.js';
import { extra } from './lib/extra.ts';
import { more } from './lib/more';
let app = createApp().get('home', '/', () => \`<html><body>${home} \${label} \${extra} \${more}</body></html>\`);
for (const name of ${JSON.stringify(routes)}) app = app.get(name, '/' + name, () => '<html><body>' + name + '</body></html>');
export { app };
`;

/** the controller's own text (the toolbar's observer script and the toolbar follow it) */
const textOf = async (url: string) =>
  (await fetchText(url)).body.split(/<script id="appkernel-toolbar-observer"|<div/)[0];

function scenario(name: string, makeDir: () => string, packageName: string): void {
  const test = suite(`watch mode never serves stale code: ${name} (real bin)`);
  let dir: string;
  let serve: ServeProcess;

  /**
   * Saves `content` as editors do (a new file renamed over the old: no half-written file is ever
   * read), then waits for the "Reloaded" line that names `changed` and returns it.
   */
  async function saveAndWaitForReload(file: string, content: string, changed: string): Promise<string> {
    const from = serve.output().length;
    writeFileSync(`${file}.tmp`, content);
    renameSync(`${file}.tmp`, file);
    const line = new RegExp(`Reloaded [^\\n]*Changed: [^\\n]*${changed.replace(/[.]/g, '\\.')}[^\\n]*\\n`);
    assert.ok(await waitFor(() => line.test(serve.output().slice(from)), MARGIN_MS), serve.output());
    return line.exec(serve.output().slice(from))![0];
  }

  test.before(async () => {
    entry = packageName;
    dir = makeDir();
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'store.ts'), `export const label: string = 'store v1';\n`);
    writeFileSync(join(dir, 'lib', 'extra.ts'), `export const extra: string = 'extra v1';\n`);
    writeFileSync(join(dir, 'lib', 'more.ts'), `export const more: string = 'more v1';\n`);
    writeFileSync(join(dir, 'app.config.ts'), appSource('Home v1', []));
    serve = await startServe(['--store', join(dir, 'var')], { cwd: dir, env: { APPKERNEL_PROFILER_DIR: '' } });
  });

  test.after(async () => {
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the app file imports ./x.js (a .ts file), ./x.ts and ./x, and all load', async () => {
    assert.is(await textOf(`${serve.base}/`), '<html><body>Home v1 store v1 extra v1 more v1');
  });

  test('when the controller text changes, then the request right after "Reloaded" answers the new text, and the line names the file', async () => {
    assert.match(
      await saveAndWaitForReload(join(dir, 'app.config.ts'), appSource('Home v2', []), 'app.config.ts'),
      /Changed: app\.config\.ts\./,
    );
    assert.is(await textOf(`${serve.base}/`), '<html><body>Home v2 store v1 extra v1 more v1');
  });

  test('when the route list changes, then the new route answers right after "Reloaded"', async () => {
    assert.is((await fetchText(`${serve.base}/new`)).status, 404);
    await saveAndWaitForReload(join(dir, 'app.config.ts'), appSource('Home v2', ['new']), 'app.config.ts');
    assert.is(await textOf(`${serve.base}/new`), '<html><body>new');
  });

  test('when imported modules change, then the request right after "Reloaded" runs their new source, and the line names them', async () => {
    await saveAndWaitForReload(
      join(dir, 'lib', 'store.ts'),
      `export const label: string = 'store v2';\n`,
      'lib/store.ts',
    );
    assert.is(await textOf(`${serve.base}/`), '<html><body>Home v2 store v2 extra v1 more v1');
    await saveAndWaitForReload(join(dir, 'lib', 'more.ts'), `export const more: string = 'more v2';\n`, 'lib/more.ts');
    assert.is(await textOf(`${serve.base}/`), '<html><body>Home v2 store v2 extra v1 more v2');
  });

  test('when the app throws while loading, then no "Reloaded" is printed, pages carry the banner and the header; the fix removes both', async () => {
    writeFileSync(
      join(dir, 'app.config.tmp'),
      `${appSource('Home v3', [])}\nconst settings: any = {};\nconsole.log(settings.eu.region);\n`,
    );
    renameSync(join(dir, 'app.config.tmp'), join(dir, 'app.config.ts'));
    assert.ok(await outputShows(serve, /Reload failed[^\n]*app\.config\.ts:10:25\)/, MARGIN_MS), serve.output());
    assert.match(serve.output(), /> 10 \| console\.log\(settings\.eu\.region\);/);
    const page = await fetchText(`${serve.base}/`);
    assert.ok(page.body.startsWith('<html><body>Home v2'), 'the last good app keeps serving');
    assert.match(page.headers['x-app-reload-failed'], /app\.config\.ts:10:25$/);
    assert.match(page.body, /id="appkernel-reload-failed"[^]*reading &#39;region&#39;[^]*app\.config\.ts:10:25/);
    const missing = await fetchText(`${serve.base}/nothing-here`);
    assert.match(missing.body, /appkernel-reload-failed/, 'error pages carry the banner too');
    assert.ok(missing.headers['x-app-reload-failed']);
    await saveAndWaitForReload(join(dir, 'app.config.ts'), appSource('Home v4', []), 'app.config.ts');
    const fixed = await fetchText(`${serve.base}/`);
    assert.ok(fixed.body.startsWith('<html><body>Home v4'));
    assert.not.match(fixed.body, /appkernel-reload-failed/);
    assert.is(fixed.headers['x-app-reload-failed'], undefined);
  });

  test.run();
}

scenario('in a temporary folder', () => mkdtempSync(join(tmpdir(), 'appkernel-never-stale-')), PACKAGE_ENTRY);
scenario(
  'in a folder inside the appkernel checkout',
  () => mkdtempSync(join(process.cwd(), '.tmp-never-stale-')),
  'appkernel',
);

const appears = suite('watch mode picks up an app file that appears while the demo is served (real bin)');
let emptyDir: string;
let demo: ServeProcess;

appears.before(async () => {
  emptyDir = mkdtempSync(join(tmpdir(), 'appkernel-appears-'));
  demo = await startServe(['--store', join(emptyDir, 'var')], { cwd: emptyDir });
});

appears.after(async () => {
  await demo.stop();
  rmSync(emptyDir, { recursive: true, force: true });
});

appears('when app.config.ts is created, then it is served from the request right after "Reloaded" on', async () => {
  assert.match(demo.output(), /serving the embedded demo app/);
  writeFileSync(
    join(emptyDir, 'app.config.ts'),
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};\nexport const app = createApp().get('home', '/', () => '<html><body>mine</body></html>');\n`,
  );
  assert.ok(
    await outputShows(demo, /Reloaded [^\n]*app\.config\.ts \(1 route\)\. Changed: app\.config\.ts\./, MARGIN_MS),
    demo.output(),
  );
  assert.is(await textOf(`${demo.base}/`), '<html><body>mine');
});

appears.run();
