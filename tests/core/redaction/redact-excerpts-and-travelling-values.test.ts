import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ExceptionData } from '../../../core/kernel/exception-data.js';
import { looksSecret, REDACTED, redactException, SecretValues } from '../../../core/redaction/index.js';

const test = suite('redaction of source excerpts, secret-reading header names and values met before');

test("when an exception's app frame shows a hard-coded key beside the throw, then the stored excerpt has it replaced, the code around it kept", () => {
  const exception: ExceptionData = {
    chain: [
      {
        class: 'Error',
        message: 'boom',
        status: 500,
        headers: {},
        frames: [
          {
            function: 'pay',
            file: 'app.config.ts',
            line: 3,
            column: 9,
            kind: 'app',
            excerpt: {
              start: 1,
              lines: [
                'const stripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";',
                'const apiKey = "k-9d8c7b6a5f4e";',
                'throw new Error("boom");',
              ],
            },
          },
        ],
      },
    ],
  };
  const lines = redactException(exception, new SecretValues()).chain[0].frames[0].excerpt!.lines;
  assert.equal(lines, [
    `const stripe = "sk_live_${REDACTED}";`,
    `const apiKey = "${REDACTED}";`,
    'throw new Error("boom");',
  ]);
});

test('when a value is known secret in the request, then an excerpt quoting it loses it too', () => {
  const secrets = new SecretValues();
  secrets.add('planted-secret-42');
  const exception: ExceptionData = {
    chain: [
      {
        class: 'Error',
        message: 'x',
        status: 500,
        headers: {},
        frames: [
          {
            function: 'f',
            file: 'a.ts',
            line: 1,
            column: 1,
            kind: 'app',
            excerpt: { start: 1, lines: ['check("planted-secret-42")'] },
          },
        ],
      },
    ],
  };
  assert.equal(redactException(exception, secrets).chain[0].frames[0].excerpt!.lines, [`check("${REDACTED}")`]);
});

test('when a header is named X-Passcode, then it reads as a secret', () => {
  assert.ok(looksSecret('X-Passcode'));
});

test.run();
