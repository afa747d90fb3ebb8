import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ERROR_CODES, HttpError } from '../../core/errors.js';
import { bodyJson, bodyText } from '../../core/http/body-parsers.js';
import { SOURCE_FOLDERS, sourceFiles } from '../helpers/source-files.js';

// The error catalogue (core/errors.ts) lists what the code raises, no more, no less (as Fastify's test/internals/errors.test.js).

const test = suite('the error catalogue lists the codes the code raises');

/**
 * The codes a source names where an error is made: every quoted code but one compared with
 * (`code === '…'`) or listed in the CLI's exit code table, which only read codes.
 */
function raisedCodes(): Set<string> {
  const raised = new Set<string>();
  for (const file of SOURCE_FOLDERS.flatMap((folder) => sourceFiles(folder))) {
    if (file === join('cli', 'exit-codes.ts')) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/([=!]==\s*)?'(APP_ERR_[A-Z_]+)'/g)) {
      if (match[1] === undefined) raised.add(match[2]);
    }
  }
  return raised;
}

test('when the sources are read, then every code of the catalogue is raised somewhere', () => {
  const raised = raisedCodes();
  assert.equal(
    Object.keys(ERROR_CODES).filter((code) => !raised.has(code)),
    [],
  );
});

test('when the sources are read, then every code they raise is in the catalogue', () => {
  assert.equal(
    [...raisedCodes()].filter((code) => !(code in ERROR_CODES)),
    [],
  );
});

test('when the catalogue is read, then each code is APP_ERR_ and upper case, and says what it means in one sentence', () => {
  for (const [code, meaning] of Object.entries(ERROR_CODES)) {
    assert.match(code, /^APP_ERR_[A-Z]+(_[A-Z]+)*$/, code);
    assert.match(meaning, /^[A-Z`a-z].*\.$/, code);
  }
});

test('when a request body cannot be parsed, then the 400 carries APP_ERR_HTTP_BAD_REQUEST', () => {
  const bodies: [string, () => unknown][] = [
    ['not UTF-8', () => bodyText(Buffer.from([0xff, 0xfe]))],
    ['empty JSON', () => bodyJson(Buffer.from('  '))],
    ['bad JSON', () => bodyJson(Buffer.from('{"a":'))],
  ];
  for (const [what, parse] of bodies) {
    try {
      parse();
      assert.unreachable(what);
    } catch (error) {
      assert.instance(error, HttpError, what);
      assert.is((error as HttpError).status, 400, what);
      assert.is((error as HttpError).code, 'APP_ERR_HTTP_BAD_REQUEST', what);
    }
  }
});

test.run();
