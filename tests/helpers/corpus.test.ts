import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { corpusSample, fuzzRuns } from './corpus.js';

const test = suite(
  'a corpus sample: fixed by its seed, of the size asked, with every case picked always; the whole corpus under test:stress',
);

const CORPUS = Array.from({ length: 100 }, (_, i) => `case ${i}`);

test('when a sample is taken twice with the same seed, then it is the same cases, in corpus order, of the size asked', () => {
  const first = corpusSample(CORPUS, { size: 10, seed: 'xss-in-query' });
  assert.equal(corpusSample(CORPUS, { size: 10, seed: 'xss-in-query' }), first);
  assert.is(first.length, 10);
  assert.equal(
    first.map((c) => c.index),
    [...first.map((c) => c.index)].sort((a, b) => a - b),
  );
  for (const { item, index } of first) assert.is(item, CORPUS[index]);
});

test('when two suites sample with their own seeds, then they run different cases', () => {
  const a = corpusSample(CORPUS, { size: 10, seed: 'xss-in-query' }).map((c) => c.index);
  const b = corpusSample(CORPUS, { size: 10, seed: 'xss-in-headers' }).map((c) => c.index);
  assert.not.equal(a, b);
});

test('when cases are picked always, then they are in the sample besides the size asked', () => {
  const sample = corpusSample(CORPUS, {
    size: 5,
    seed: 'any',
    always: (item) => item === 'case 7' || item === 'case 97',
  });
  assert.ok(
    sample.some((c) => c.index === 7) && sample.some((c) => c.index === 97),
    sample.map((c) => c.index).join(', '),
  );
  assert.ok(sample.length >= 5 && sample.length <= 7, `${sample.length} cases`);
});

test('when the size is the corpus or more, then every case runs', () => {
  assert.is(corpusSample(CORPUS, { size: 100, seed: 'any' }).length, 100);
});

test('when a property is fuzzed under npm test, then it runs a fifth of its inputs from a seed fixed by its name', () => {
  assert.equal(fuzzRuns(3000, 'token'), fuzzRuns(3000, 'token'));
  assert.is(fuzzRuns(3000, 'token').numRuns, 600);
  assert.is(typeof fuzzRuns(3000, 'token').seed, 'number');
  assert.is.not(fuzzRuns(3000, 'token').seed, fuzzRuns(3000, 'panel').seed);
});

test('when APPKERNEL_TEST_CORPUS=full (test:stress), then every case runs, and every fuzzed input from a fresh seed', () => {
  const helper = resolve(process.cwd(), 'dist/tests/helpers/corpus.js');
  const script = `import(${JSON.stringify(helper)}).then((m) => console.log(JSON.stringify([m.corpusSample(Array.from({ length: 100 }, (_, i) => i), { size: 10, seed: 'any' }).length, m.fuzzRuns(3000, 'token')])))`;
  const run = (corpus: string) =>
    spawnSync(process.execPath, ['-e', script], {
      env: { ...process.env, APPKERNEL_TEST_CORPUS: corpus },
      encoding: 'utf8',
    });
  const full = run('full');
  assert.equal(JSON.parse(full.stdout), [100, { numRuns: 3000 }], full.stderr);
  assert.equal(JSON.parse(run('').stdout)[0], 10);
});

test.run();
