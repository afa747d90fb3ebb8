import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SOURCE_FOLDERS, sourceFiles } from './helpers/source-files.js';

const test = suite('names keep one spelling');

/**
 * The spellings names do not take, the one most of the code uses being the other: normalise (not
 * normalize), color (not colour). Prose (comments, messages) is not read; Node's own `normalize` is its name.
 */
const OTHER_SPELLINGS = new RegExp('normaliz|colour', 'i');
const FOREIGN_NAMES = new Set(['normalize']);

/** The code of a source without its comments and the text of its strings. */
function code(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, "''");
}

test('when the names of the code, the tests and the scripts are read, then none is spelt the other way', () => {
  const files = [...SOURCE_FOLDERS, 'tests', 'scripts'].flatMap((folder) => sourceFiles(folder));
  const found = files.flatMap((file) =>
    [...code(readFileSync(file, 'utf8')).matchAll(/[A-Za-z_$][\w$]*/g)]
      .map(([name]) => name)
      .filter((name) => OTHER_SPELLINGS.test(name) && !FOREIGN_NAMES.has(name))
      .map((name) => `${file}: ${name}`),
  );
  assert.equal(found, []);
});

test('when a name is spelt the other way, then the reader finds it, and not in a comment or a string', () => {
  const sample =
    "// normalizeX in a comment\nconst colourOf = 'normalizeHost';\n/* KIND_COLOURS */ function normalizeHostName() {}";
  const names = [...code(sample).matchAll(/[A-Za-z_$][\w$]*/g)]
    .map(([name]) => name)
    .filter((name) => OTHER_SPELLINGS.test(name));
  assert.equal(names, ['colourOf', 'normalizeHostName']);
});

test.run();
