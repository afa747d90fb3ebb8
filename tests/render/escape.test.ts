import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { escapeHtml as fromCore } from '../../core/http/escape-html.js';
import { escapeHtml, queryString, safeUrl } from '../../render/escape.js';

const test = suite('escape helpers');

test('should escape & < > " \' and leave other text untouched', () => {
  assert.is(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  assert.is(escapeHtml('plain / text é'), 'plain / text é');
  assert.is(fromCore, escapeHtml, 'render/ re-exports the one helper of core/http');
});

test('for any text, then each special character becomes its entity and every other one stays as it is', () => {
  const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  const bidi = (c: string) => (/[\u202a-\u202e\u2066-\u2069]/.test(c) ? `\\u${c.charCodeAt(0).toString(16)}` : c);
  const reference = (text: string) => [...text].map((c) => entities[c] ?? bidi(c)).join('');
  const text = fc.string({
    unit: fc.constantFrom('&', '<', '>', '"', "'", 'a', ' ', 'é', '😀', '\n', '\u202e', '\u2066'),
  });
  fc.assert(
    fc.property(fc.oneof(text, fc.string({ unit: 'grapheme' })), (s) => escapeHtml(s) === reference(s)),
    { numRuns: 2000 },
  );
});

test('when text holds bidi overrides or isolates, then each is written as its escape, so nothing after it shows reversed', () => {
  assert.is(escapeHtml('invoice\u202egpj.exe'), 'invoice\\u202egpj.exe');
  assert.is(escapeHtml('a\u2066b\u2069 <c>'), 'a\\u2066b\\u2069 &lt;c&gt;');
  assert.is(
    escapeHtml('\u05e9\u05dc\u05d5\u05dd \u200f'),
    '\u05e9\u05dc\u05d5\u05dd \u200f',
    'right-to-left letters and marks stay',
  );
});

test('when a corrupt value is not a string, then it is shown as text, not thrown', () => {
  assert.is(escapeHtml(42 as unknown as string), '42');
  assert.is(escapeHtml(undefined as unknown as string), '');
});

test('should allow http(s) and local paths in href, and refuse javascript:, data: and //host', () => {
  assert.is(safeUrl('http://127.0.0.1:8000/a'), 'http://127.0.0.1:8000/a');
  assert.is(safeUrl('/_profiler/abc'), '/_profiler/abc');
  for (const bad of [
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'data:text/html,x',
    '//evil.test/',
    '/\\evil.test',
    'jav\tascript:x',
  ]) {
    assert.is(safeUrl(bad), null, bad);
  }
});

test('should encode query values and skip blanks', () => {
  assert.is(
    queryString({ url: 'http://a/b?c=d&e', limit: 10, ip: undefined, method: '' }),
    '?url=http%3A%2F%2Fa%2Fb%3Fc%3Dd%26e&limit=10',
  );
  assert.is(queryString({}), '');
});

test.run();
