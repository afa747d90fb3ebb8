import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateToken, isValidToken } from '../../../core/profiler/token.js';

const test = suite('tokens');

test('when generating, then 6 lowercase hex characters, spread over the whole space', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const token = generateToken(() => false);
    assert.match(token, /^[0-9a-f]{6}$/);
    seen.add(token);
  }
  assert.ok(seen.size > 1990, `${seen.size} distinct of 2000`);
  assert.ok(
    [...seen].some((t) => t.startsWith('0')),
    'leading zeros are kept',
  );
});

test('when more tokens are drawn than one batch of random bytes holds, then every one is still fresh and well formed', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const token = generateToken((t) => seen.has(t));
    assert.match(token, /^[0-9a-f]{6}$/);
    assert.not.ok(seen.has(token), `${token} was handed out twice`);
    seen.add(token);
  }
  assert.is(seen.size, 5000);
});

test('when a drawn token exists, then another is drawn until one is free', () => {
  const taken = new Set<string>();
  let asked = 0;
  const token = generateToken((t) => {
    asked++;
    if (asked <= 3) {
      taken.add(t);
      return true;
    }
    return taken.has(t);
  });
  assert.ok(asked >= 4);
  assert.not.ok(taken.has(token));
});

test('when the store hands out reserved tokens, then they come first, one that exists is passed over, and a random draw follows when none is left', () => {
  const reserved = ['aaaaa1', 'aaaaa2', 'aaaaa3'];
  const exists = (t: string) => t === 'aaaaa1';
  assert.is(
    generateToken(exists, () => reserved.shift() ?? null),
    'aaaaa2',
  );
  assert.is(
    generateToken(exists, () => reserved.shift() ?? null),
    'aaaaa3',
  );
  const drawn = generateToken(exists, () => reserved.shift() ?? null);
  assert.match(drawn, /^[0-9a-f]{6}$/);
  assert.not.ok(['aaaaa1', 'aaaaa2', 'aaaaa3'].includes(drawn));
});

test('when every token is taken, then it gives up with a clear error instead of looping', () => {
  assert.throws(() => generateToken(() => true), /No unused profile token found in \d+ attempts/);
});

test('when validating, then only exactly 6 lowercase hex characters pass', () => {
  for (const good of ['000000', 'abcdef', '3f2a1c', 'ffffff']) assert.ok(isValidToken(good), good);
  for (const bad of [
    '',
    'ABCDEF',
    'abcde',
    'abcdef0',
    'abcdeg',
    '..',
    '../etc',
    'abc/ef',
    '%2e%2e',
    'abcdef\n',
    ' abcde',
    'abc de',
  ]) {
    assert.not.ok(isValidToken(bad), JSON.stringify(bad));
  }
});

test.run();
