import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { flattenException } from '../../../core/kernel/flatten-exception.js';

const test = suite('flattenException: a message never becomes stack frames');
const FORGED = 'bad input\n    at forged (/etc/passwd:1:1)\n    at alsoForged (/etc/hostname:2:3)';

const frameNames = (error: unknown) => flattenException(error, process.cwd()).chain[0].frames.map((f) => f.function);

function thrower(make: () => Error): Error {
  return make();
}

test('when a message holds lines shaped like frames, then only the real frames are parsed, and no file is excerpted for them', () => {
  const chain = flattenException(
    thrower(() => new Error(FORGED)),
    process.cwd(),
  ).chain;
  const names = chain[0].frames.map((f) => f.function);
  assert.not.ok(names.includes('forged') || names.includes('alsoForged'), names.join());
  assert.ok(names.includes('thrower'), names.join());
  assert.is(chain[0].message, FORGED);
  assert.not.ok(chain[0].frames.some((f) => f.file?.startsWith('/etc/')));
});

test('when the error has a custom name, an empty message or a class of its own, then the header is still skipped', () => {
  class LedgerError extends Error {
    override name = 'LedgerError';
  }
  const renamed = new Error(FORGED);
  renamed.name = 'Renamed\n    at forgedName (/etc/passwd:1:1)';
  for (const error of [new LedgerError(FORGED), new TypeError(FORGED), renamed]) {
    assert.not.ok(
      frameNames(error).some((n) => n.startsWith('forged') || n === 'alsoForged'),
      `${error.name}: ${frameNames(error).join()}`,
    );
  }
  assert.ok(frameNames(new Error('')).length > 0);
});

test('when a custom toString hides the header, then the header is skipped by its line count', () => {
  const error = new Error(FORGED);
  error.toString = () => 'something else';
  void error.stack;
  assert.not.ok(
    frameNames(error).some((n) => n.startsWith('forged') || n === 'alsoForged'),
    frameNames(error).join(),
  );
  assert.ok(frameNames(error).length > 0);
});

test('when a cause carries the forged lines, then its frames are clean too', () => {
  const outer = new Error('outer', { cause: new Error(FORGED) });
  const chain = flattenException(outer, process.cwd()).chain;
  assert.is(chain.length, 2);
  assert.not.ok(chain[1].frames.some((f) => f.function.startsWith('forged') || f.function === 'alsoForged'));
});

test.run();
