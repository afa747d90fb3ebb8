import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { failureHint } from '../../cli/snapshot.js';
import type { CheckedPath } from '../../snapshots/check-paths.js';

// The summary under a failed `app snapshot` run reads as English: "1 of 2 pages differs", not "1 of 2 page differs".

const test = suite('app snapshot: the failure summary counts pages in plain English');

const page = (path: string, state: CheckedPath['state']): CheckedPath => ({ path, state, file: `/tmp/${path}.snap` });

test('one failed page of two: "1 of 2 pages differs from its snapshot"', () => {
  const text = failureHint([page('/a', 'failed'), page('/b', 'passed')]);
  assert.match(text, /^1 of 2 pages differs from its snapshot:/);
});

test('two failed pages of three: "2 of 3 pages differ from their snapshots"', () => {
  const text = failureHint([page('/a', 'failed'), page('/b', 'failed'), page('/c', 'passed')]);
  assert.match(text, /^2 of 3 pages differ from their snapshots:/);
});

test('the only page failed: "1 of 1 page differs"', () => {
  assert.match(failureHint([page('/a', 'failed')]), /^1 of 1 page differs from its snapshot:/);
});

test.run();
