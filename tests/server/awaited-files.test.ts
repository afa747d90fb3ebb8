import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { awaitedFiles } from '../../server/awaited-files.js';

const test = suite('the files a failed import of a local module waits for');
const parent = '/project/app.config.ts';

test('an extensionless import waits for each extension and for the folder index', () => {
  const files = awaitedFiles('./lib/pricing', parent);
  for (const file of [
    '/project/lib/pricing.ts',
    '/project/lib/pricing.js',
    '/project/lib/pricing.tsx',
    '/project/lib/pricing/index.ts',
    '/project/lib/pricing/index.js',
  ]) {
    assert.ok(files.includes(file), `${file} in ${files.join(', ')}`);
  }
});

test('an import written with .js waits for the .ts file TypeScript compiles to it', () => {
  const files = awaitedFiles('../shared/pricing.js?v=1', '/project/src/app.ts');
  assert.ok(files.includes('/project/shared/pricing.js'));
  assert.ok(files.includes('/project/shared/pricing.ts'));
});

test('a file: URL and an absolute path are local; a package name is not', () => {
  assert.ok(awaitedFiles('file:///elsewhere/x', parent).includes('/elsewhere/x.ts'));
  assert.ok(awaitedFiles('/elsewhere/my%20file', parent).includes('/elsewhere/my file.ts'));
  assert.equal(awaitedFiles('left-pad', parent), []);
  assert.equal(awaitedFiles('node:fs', parent), []);
});

test.run();
