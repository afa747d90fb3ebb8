import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

/** `npm test` runs a fixed sample of each big corpus (tests/helpers/corpus.ts); here every suite that samples one runs it whole. */
const test = suite('every corpus in full: the suites that sample a corpus under npm test, run with all their cases');

const TESTS = resolve(process.cwd(), 'dist/tests');

function compiledSuites(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? compiledSuites(path) : name.endsWith('.test.js') ? [path] : [];
    });
}

/** A suite samples a corpus when it, or the harness it imports from its own folder, uses the corpus helper. */
function samplesACorpus(file: string): boolean {
  const text = readFileSync(file, 'utf8');
  if (text.includes('helpers/corpus.js')) return true;
  // An import named in a test's own text (a fixture's source in a string) may be no file here.
  return [...text.matchAll(/from '\.\/([\w-]+\.js)'/g)].some(([, harness]) => {
    const path = join(file, '..', harness);
    return existsSync(path) && readFileSync(path, 'utf8').includes('helpers/corpus.js');
  });
}

function runInFull(file: string): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--enable-source-maps', file], {
      env: { ...process.env, APPKERNEL_TEST_CORPUS: 'full', FORCE_COLOR: '0' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => done({ code, out }));
  });
}

/** The helper's own test (tests/helpers/corpus.test.ts) checks both forms itself. */
const sampling = compiledSuites(TESTS).filter(
  (file) => !file.startsWith(join(TESTS, 'helpers')) && samplesACorpus(file),
);

test('when the suites are listed, then the XSS and fuzz suites are among those that sample', () => {
  const names = sampling.map((file) => relative(TESTS, file)).join(', ');
  assert.ok(sampling.filter((file) => /xss-in-/.test(file)).length >= 8, names);
  assert.ok(sampling.filter((file) => /fuzz-/.test(file)).length >= 4, names);
});

for (const file of sampling) {
  test(`when ${relative(TESTS, file)} runs every case, then they all pass`, async () => {
    const { code, out } = await runInFull(file);
    const total = [...out.matchAll(/Total:\s+(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
    const passed = [...out.matchAll(/Passed:\s+(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
    console.log(`${relative(TESTS, file)}: ${passed} of ${total} in full`);
    assert.is(code, 0, out.slice(-4000));
    assert.is(passed, total, out.slice(-4000));
  });
}

test.run();
