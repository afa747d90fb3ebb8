import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { importsOf, SOURCE_FOLDERS, sourceFiles } from './helpers/source-files.js';

const test = suite('every module of the package is used');

/** The package's entry points (package.json's bin and exports) as the sources they are compiled from. */
function entryPoints(): string[] {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    bin: Record<string, string>;
    exports: Record<string, string>;
  };
  return [...Object.values(pkg.bin), ...Object.values(pkg.exports)].map((built) =>
    normalize(built)
      .replace(/^dist\//, '')
      .replace(/\.js$/, '.ts'),
  );
}

test("when the package's code and scripts are read, then each module is an entry point or imported by another (tests do not count)", () => {
  const modules = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(folder)).filter((file) => !file.endsWith('.d.ts'));
  const imported = new Set(entryPoints());
  for (const file of [...modules, 'index.ts', ...sourceFiles('scripts')]) {
    for (const spec of importsOf(readFileSync(file, 'utf8')))
      imported.add(normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts'));
  }
  assert.equal(
    modules.filter((file) => !imported.has(file)),
    [],
  );
});

test.run();
