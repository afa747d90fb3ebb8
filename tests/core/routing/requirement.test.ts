import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sanitizeRequirement, staysInSegment } from '../../../core/routing/requirement.js';

const test = suite('requirements');

const oneSegment = [
  '[^/]+',
  '\\d+',
  '[a-z]{2,4}',
  '[^/.]+',
  'en|fr',
  '(?:v\\d)+',
  '[\\w-]+',
  '\\.json',
  '[^\\/]+',
  '[^!-0]+',
];
const mayCross = [
  '.+',
  '.*',
  '[^.]+',
  '\\D+',
  '\\S+',
  '\\W',
  'a/b',
  '[!-0]',
  '[\\s\\S]+',
  '\\x2F',
  '\\u002f',
  '(\\w)\\1',
  '[\\d-z]',
];

test('when a requirement can never consume "/", then it stays in its segment', () => {
  for (const requirement of oneSegment) assert.ok(staysInSegment(requirement), requirement);
});

test('when a requirement may consume "/" (or cannot be proved not to), then it may cross segments', () => {
  for (const requirement of mayCross) assert.not.ok(staysInSegment(requirement), requirement);
});

test('when a requirement is anchored, then the anchors are dropped as Symfony does', () => {
  assert.is(sanitizeRequirement('^\\d+$'), '\\d+');
  assert.is(sanitizeRequirement('a\\$'), 'a\\$');
});

test.run();
