import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, runAppInProcess, startServe } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';

const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ name: 'editor' })
  .get('fail', '/fail', function fail() {
    throw new Error('failed');
  });
`;

const test = suite(
  'app serve --editor and APPKERNEL_EDITOR: "open in editor" links on the error pages and the exception panel',
);
let dir: string;

test.before(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'appkernel-editor-app-')));
  writeFileSync(join(dir, 'app.config.mjs'), APP);
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('when --editor names no known editor and is no template, then a one-line usage error and exit 2', async () => {
  const r = await runApp(['serve', '--port', '0', '--editor', 'notepad'], { cwd: dir });
  assert.is(r.code, 2);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(
    r.stderr,
    /Unknown editor "notepad" \(--editor\): use vscode, cursor, idea, phpstorm, sublime, textmate, emacs, atom, or a URL template with %f and %l/,
  );
});

test('when APPKERNEL_EDITOR is no editor, then the usage error names the variable', async () => {
  // In this process: the variable is refused while the options are read, before anything starts.
  const r = await runAppInProcess(['serve', '--port', '0'], {
    cwd: dir,
    env: { APPKERNEL_EDITOR: 'javascript:alert(%f)' },
  });
  assert.is(r.code, 2);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /Unknown editor "javascript:alert\(%f\)" \(APPKERNEL_EDITOR\)/);
});

test('when --editor vscode, then the app frame links to vscode://file/<absolute file>:<line>', async () => {
  const server = await startServe(['--no-watch', '--editor', 'vscode', '--store', join(dir, 'store')], { cwd: dir });
  try {
    const failed = await fetchText(`${server.base}/fail`);
    const $ = load(failed.body);
    assert.is($('.frame-app a.editor').first().attr('href'), `vscode://file${dir}/app.config.mjs:4`);
    const panel = load(
      (await fetchText(`${server.base}/_profiler/${failed.headers['x-debug-token']}?panel=exception`)).body,
    );
    assert.is(
      panel('.frame-app a.editor').first().attr('href'),
      `vscode://file${dir}/app.config.mjs:4`,
      "the profiler's exception panel links too",
    );
  } finally {
    assert.is(await server.stop(), 0);
  }
});

test('when APPKERNEL_EDITOR is a template and --editor is absent, then the template is used; without either, no link', async () => {
  const server = await startServe(['--no-watch', '--store', join(dir, 'store')], {
    cwd: dir,
    env: { APPKERNEL_EDITOR: 'myeditor://open?file=%f&line=%l' },
  });
  try {
    const $ = load((await fetchText(`${server.base}/fail`)).body);
    assert.is($('.frame-app a.editor').first().attr('href'), `myeditor://open?file=${dir}/app.config.mjs&line=4`);
  } finally {
    await server.stop();
  }
  const plain = await startServe(['--no-watch', '--store', join(dir, 'store')], {
    cwd: dir,
    env: { APPKERNEL_EDITOR: '' },
  });
  try {
    assert.is(load((await fetchText(`${plain.base}/fail`)).body)('a.editor').length, 0);
  } finally {
    await plain.stop();
  }
});

test.run();
