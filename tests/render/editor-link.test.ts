import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { absoluteFile, EDITORS, editorTemplate, editorUrl } from '../../render/editor-link.js';
import { renderErrorPage } from '../../render/error-page.js';
import { createHtmlErrorRenderer } from '../../render/error-renderer.js';
import { notFoundErrorPage, PAYLOADS, serverErrorProfile } from './fixtures.js';
import { assertNoInjection } from './html-assertions.js';

const test = suite('"open in editor" links on the app\'s frames');

test("should know the editors Symfony's framework.ide knows, plus cursor", () => {
  assert.equal(Object.keys(EDITORS), ['vscode', 'cursor', 'idea', 'phpstorm', 'sublime', 'textmate', 'emacs', 'atom']);
  assert.is(editorTemplate('vscode'), 'vscode://file/%f:%l');
  assert.is(editorTemplate('phpstorm'), 'phpstorm://open?file=%f&line=%l');
});

test('when given a URL template with %f, then it is used as it is; anything else is refused', () => {
  assert.is(editorTemplate('myeditor://open?file=%f&line=%l'), 'myeditor://open?file=%f&line=%l');
  assert.is(editorTemplate('notepad'), null);
  assert.is(editorTemplate('myeditor://open?line=%l'), null, 'no %f');
  assert.is(editorTemplate('%f:%l'), null, 'no scheme');
  assert.is(editorTemplate('javascript:alert("%f")'), null);
  assert.is(editorTemplate(' JavaScript:alert("%f")'), null);
  assert.is(editorTemplate('data:text/html,%f'), null);
  assert.is(editorTemplate('constructor'), null, 'an Object.prototype key is no editor');
});

test('should build the link from the absolute file and line, each path segment percent-encoded', () => {
  assert.is(editorUrl(EDITORS.vscode, '/home/me/app/src/a.ts', 12), 'vscode://file/home/me/app/src/a.ts:12');
  assert.is(
    editorUrl(EDITORS.sublime, '/home/me/app/src/a.ts', 12),
    'subl://open?url=file:///home/me/app/src/a.ts&line=12',
  );
  assert.is(
    editorUrl(EDITORS.idea, '/my app/#1 & $&.ts', 3),
    'idea://open?file=/my%20app/%231%20%26%20%24%26.ts&line=3',
  );
  assert.is(editorUrl(EDITORS.vscode, 'C:\\work\\app.ts', 5), 'vscode://file/C:/work/app.ts:5');
  assert.is(editorUrl(EDITORS.vscode, '/a.ts', null), 'vscode://file/a.ts:1');
  assert.is(absoluteFile('/srv/app/', 'src/a.ts'), '/srv/app/src/a.ts');
  assert.is(absoluteFile('/srv/app', '/elsewhere/a.ts'), '/elsewhere/a.ts');
});

test('when an editor is configured, then each app frame links to it and vendor/internal frames do not', () => {
  const exception = serverErrorProfile().collectors.exception!;
  const data = { ...notFoundErrorPage(), status: 500, statusText: 'Internal Server Error', exception };
  const $ = load(createHtmlErrorRenderer({ template: EDITORS.vscode, root: '/srv/shop' }).debugPage(data));
  const links = $('.exc a.editor');
  assert.is(links.length, $('.exc li.frame-app').length);
  assert.is(links.first().attr('href'), 'vscode://file/srv/shop/src/inventory.ts:10');
  assert.is(links.first().text(), 'Open in editor');
  assert.is($('.exc li:not(.frame-app) a.editor').length, 0);
  assert.is(load(renderErrorPage(data))('a.editor').length, 0, 'no editor, no links');
});

test("when the frame's file holds XSS payloads, then the link is escaped and keeps the editor's scheme", () => {
  const p = PAYLOADS.join(' ');
  const exception = serverErrorProfile().collectors.exception!;
  exception.chain[0].frames[0].file = `src/${p}.ts`;
  const html = createHtmlErrorRenderer({ template: 'myeditor://open?file=%f&line=%l', root: `/srv/${p}` }).debugPage({
    ...notFoundErrorPage(),
    status: 500,
    statusText: 'Internal Server Error',
    exception,
  });
  assertNoInjection(html, 'editor link');
  const href = load(html)('a.editor').first().attr('href')!;
  assert.ok(href.startsWith('myeditor://open?file=/srv/'), href);
  assert.not.match(href, /[<>" ]/);
});

test.run();
