import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  jsonForTerminal,
  terminalSafe,
  terminalSafeBlock,
  terminalSafeError,
} from '../../../render/text/terminal-safe.js';

const UNSAFE = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Every code point a terminal may obey or that reorders or breaks a line. */
const EVERY_UNSAFE = [
  ...Array.from({ length: 0x20 }, (_, i) => i),
  0x7f,
  ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i),
  0x2028,
  0x2029,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
].map((code) => String.fromCharCode(code));

// ---
const line = suite('terminalSafe: one line');

line('when a value holds each class of sequence, then each is shown as the escape a string literal would use', () => {
  assert.is(terminalSafe('\x1b]52;c;aGk=\x07'), '\\x1b]52;c;aGk=\\x07');
  assert.is(terminalSafe('\x1b]0;title\x07\x1b[2J'), '\\x1b]0;title\\x07\\x1b[2J');
  assert.is(terminalSafe('a\r\nb\tc\x7f'), 'a\\r\\nb\\tc\\x7f');
  assert.is(terminalSafe('\u009b2J\u0085'), '\\u009b2J\\u0085');
  assert.is(terminalSafe('abc\u202egpj.exe\u2066\u2069\u2028\u2029'), 'abc\\u202egpj.exe\\u2066\\u2069\\u2028\\u2029');
});

line(
  'when every unsafe code point is escaped, then none is left and printable text (é, ü, emoji, U+00A0) is kept',
  () => {
    assert.not.match(terminalSafe(EVERY_UNSAFE.join('')), UNSAFE);
    assert.not.ok(terminalSafe(EVERY_UNSAFE.join('')).includes('\t'));
    assert.is(terminalSafe('café ü 😀 \u00a0 \u200d'), 'café ü 😀 \u00a0 \u200d');
  },
);

line(
  'when safe and unsafe texts alternate, then each safe one comes back unchanged and each unsafe one escaped in full',
  () => {
    for (let i = 0; i < 3; i++) {
      assert.is(terminalSafe('GET /hello/world'), 'GET /hello/world');
      assert.is(terminalSafe('a\x1bb\x1bc'), 'a\\x1bb\\x1bc');
      assert.is(terminalSafe(`x${EVERY_UNSAFE.join('')}`).match(UNSAFE), null);
      assert.is(terminalSafe(''), '');
    }
  },
);

line.run();

// ---
const block = suite('terminalSafeBlock: several lines');

block(
  'when a body holds line breaks, then LF, CRLF and CR become line breaks, tabs two spaces, the rest escaped',
  () => {
    assert.is(terminalSafeBlock('a\r\nb\rc\nd\te\x1b[2J\u009b\u2028'), 'a\nb\nc\nd  e\\x1b[2J\\u009b\\u2028');
    assert.not.match(terminalSafeBlock(EVERY_UNSAFE.join('')).replace(/\n/g, ''), UNSAFE);
  },
);

block.run();

// ---
const json = suite('jsonForTerminal');

json(
  'when a value holds every unsafe code point, then the JSON holds none raw and parses back to the same value',
  () => {
    const value = { text: EVERY_UNSAFE.join(''), list: ['\u009b', '\u202e'], [`key\u009b\u2028`]: 1 };
    const text = jsonForTerminal(value);
    assert.not.match(text.replace(/\n/g, ''), UNSAFE);
    assert.ok(
      text.includes('\\u009b') && text.includes('\\u202e') && text.includes('\\u2028') && text.includes('\\u007f'),
    );
    assert.equal(JSON.parse(text), value);
  },
);

json('when a value is safe, then the text is JSON.stringify with two spaces', () => {
  const value = { a: [1, 'é'], b: null };
  assert.is(jsonForTerminal(value), JSON.stringify(value, null, 2));
});

json.run();

// ---
const error = suite('terminalSafeError');

error(
  'when an exception message holds a forged line and escapes, then the message stays on the first line, escaped, and the frames follow',
  () => {
    const thrown = new Error('one\r\n12:00:00 CRITICAL [app] forged\x1b[2J');
    const text = terminalSafeError(thrown);
    const [first, ...frames] = text.split('\n');
    assert.is(first, 'Error: one\\r\\n12:00:00 CRITICAL [app] forged\\x1b[2J');
    assert.ok(frames.length > 0 && frames.every((f) => /^ {4}at /.test(f)), text);
    assert.not.match(text.replace(/\n/g, ''), UNSAFE);
  },
);

error('when a thrown value is no Error, or its stack does not start with its message, then one escaped line', () => {
  assert.is(terminalSafeError('plain\nstring\u009b'), 'plain\\nstring\\u009b');
  const odd = new Error('x');
  odd.stack = 'Something\x1b[2J else\n    at here';
  assert.is(terminalSafeError(odd), 'Something\\x1b[2J else\\n    at here');
  assert.is(terminalSafeError(null), 'null');
});

error.run();
