import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeParameter, toMatchPath } from '../../../core/routing/match-path.js';

const test = suite('match path: percent-escapes decoded except the encoded slash and percent');

const cases: [string, string, string][] = [
  ['a path without escapes', '/hello/world', '/hello/world'],
  ['escaped ASCII and UTF-8', '/caf%C3%A9/%61%62', '/café/ab'],
  ['lower-case hex', '/caf%c3%a9', '/café'],
  ['an encoded slash', '/a%2fb/c%2F', '/a%2Fb/c%2F'],
  ['an encoded percent', '/100%25/%252F', '/100%25/%252F'],
  ['a truncated UTF-8 sequence', '/%E0%A4%A', '/%E0%A4%25A'],
  ['a lone continuation byte and an invalid lead byte', '/%80x%FFy', '/%80x%FFy'],
  ['an overlong encoding', '/%C0%AF', '/%C0%AF'],
  ['an encoded surrogate', '/%ED%A0%80', '/%ED%A0%80'],
  ['a percent not followed by two hex digits', '/%zz/%/%4', '/%25zz/%25/%254'],
  ['a four-byte character', '/%F0%9F%98%80', '/😀'],
];

for (const [what, path, expected] of cases) {
  test(`when the path has ${what}, then its match path is ${expected}`, () => {
    assert.is(toMatchPath(path), expected);
  });
}

test('when a captured value is decoded, then %2F and %25 become "/" and "%" and invalid bytes stay escaped', () => {
  assert.is(decodeParameter('a%2Fb%25c'), 'a/b%c');
  assert.is(decodeParameter(toMatchPath('%E0%A4%A')), '%E0%A4%A');
  assert.is(decodeParameter(toMatchPath('%zz')), '%zz');
  assert.is(decodeParameter(toMatchPath('%252F')), '%2F');
});

test.run();
