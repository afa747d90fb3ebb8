import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// The README is a front door to docs/: a relative link that points at nothing is a door to nowhere.
const test = suite('relative links in README.md, ARCHITECTURE.md and docs/ point at files that exist');

const pages = ['README.md', 'ARCHITECTURE.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

test('when every page is read, then each relative link names a file of the repository', () => {
  const broken: string[] = [];
  for (const page of pages) {
    for (const [, target] of readFileSync(page, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
      const file = join(dirname(page), target.split('#')[0]);
      if (!existsSync(file)) broken.push(`${page}: ${target}`);
    }
  }
  assert.equal(broken, []);
});

test('when the README is measured, then it stays a front door (under 10,000 characters) and links every docs/ page', () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.ok(readme.length < 10_000, `${readme.length} characters`);
  for (const page of pages.filter((p) => p.startsWith('docs'))) assert.ok(readme.includes(`](${page})`), page);
});

test.run();
