import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderErrorPage } from '../../render/error-page.js';
import { highlightLines, sourceLanguage } from '../../render/highlight-source.js';
import { notFoundErrorPage, PAYLOADS, serverErrorProfile } from './fixtures.js';
import { assertNoInjection } from './html-assertions.js';

const test = suite('highlightLines: TypeScript and JavaScript excerpts, highlighted on the server');

test('should pick the language from the file extension, and none for other files', () => {
  assert.is(sourceLanguage('src/app.ts'), 'typescript');
  assert.is(sourceLanguage('src/app.MTS'), 'typescript');
  assert.is(sourceLanguage('app.config.mjs'), 'javascript');
  assert.is(sourceLanguage('lib/x.cjs'), 'javascript');
  assert.is(sourceLanguage('README.md'), null);
  assert.is(sourceLanguage(null), null);
});

test('when TypeScript, then keywords, strings, numbers and comments get tok-* classes and the text is unchanged', () => {
  const lines = ['const answer: number = 42; // the answer', 'throw new Error("no <stock>");'];
  const html = highlightLines(lines, 'typescript');
  assert.is(html.length, 2);
  const $ = load(`<pre>${html.map((h) => `<span class="line">${h}</span>`).join('')}</pre>`);
  assert.equal(
    $('span.line')
      .map((_, l) => $(l).text())
      .get(),
    lines,
  );
  assert.ok(
    $('.tok-keyword')
      .map((_, k) => $(k).text())
      .get()
      .includes('const'),
  );
  assert.is($('.tok-number').text(), '42');
  assert.is($('.tok-comment').text(), '// the answer');
  assert.is($('.tok-string').text(), '"no <stock>"');
});

test('when a comment spans lines, then each line closes its spans and the next opens them again', () => {
  const lines = ['/* one', '   two */ let x = 1;'];
  const html = highlightLines(lines, 'javascript');
  for (const line of html) assert.is((line.match(/<span/g) ?? []).length, (line.match(/<\/span>/g) ?? []).length, line);
  assert.match(html[0], /^<span class="tok-comment">\/\* one<\/span>$/);
  assert.match(html[1], /^<span class="tok-comment">   two \*\/<\/span>/);
});

test('when the language is unknown, then the lines are only escaped', () => {
  assert.equal(highlightLines(['<b>&</b>'], null), ['&lt;b&gt;&amp;&lt;/b&gt;']);
});

test('when the source lines hold XSS payloads, in code, strings and comments, then they stay text', () => {
  const lines = [
    ...PAYLOADS,
    `const s = "${PAYLOADS[1]}"; // ${PAYLOADS[0]}`,
    `/* ${PAYLOADS[0]}`,
    `${PAYLOADS[1]} */ \`${PAYLOADS[0]}\${x}\``,
  ];
  for (const language of ['typescript', 'javascript', null]) {
    const html = highlightLines(lines, language);
    const page = `<pre>${html.map((h) => `<span class="line">${h}</span>`).join('')}</pre>`;
    assertNoInjection(page, `highlighted as ${language}`);
    const $ = load(page);
    assert.equal(
      $('span.line')
        .map((_, l) => $(l).text())
        .get(),
      lines,
      `${language}: the text is the source`,
    );
    assert.is(
      $('span').filter((_, s) => !/^(line|tok-[\w ]+)$/.test($(s).attr('class') ?? '')).length,
      0,
      'no other element',
    );
  }
});

test('when an app frame of a .ts file is on the error page, then its excerpt is highlighted and the highlighted line is kept', () => {
  const exception = serverErrorProfile().collectors.exception!;
  exception.chain[0].frames[0].excerpt = {
    start: 9,
    lines: ['function checkStock(id: string) {', '  throw new Error(`no ${id}`);', '}'],
  };
  const $ = load(
    renderErrorPage({ ...notFoundErrorPage(), status: 500, statusText: 'Internal Server Error', exception }),
  );
  const code = $('.exc li.frame-app').first().find('pre.code');
  assert.is(code.children('span').length, 3);
  assert.is(code.find('.hl').text(), '10   throw new Error(`no ${id}`);\n');
  assert.ok(code.find('.hl .tok-keyword').length >= 2, 'throw and new');
  assert.ok(code.find('.tok-subst').length >= 1, "the template string's substitution");
});

test('given the same excerpt again, when highlighted, then the same lines come, each time an array of its own', () => {
  const lines = ['const a = 1; /* open', 'still <b> comment */ const b = "x";'];
  const first = highlightLines(lines, 'typescript');
  first[0] = 'changed by a caller';
  const second = highlightLines(lines, 'typescript');
  assert.is.not(second[0], 'changed by a caller');
  assert.equal(second, highlightLines([...lines], 'typescript'));
  assert.not.equal(highlightLines(['const a = 1; /* open', 'still <b> comment */'], 'typescript'), second);
  assert.not.match(second.join(''), /<b>/);
});

test.run();
