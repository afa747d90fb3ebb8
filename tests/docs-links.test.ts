import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// The README is a front door to docs/: a relative link that points at nothing is a door to nowhere.
const test = suite('relative links in README.md, ARCHITECTURE.md and docs/ point at files and headings that exist');

const pages = [
  'README.md',
  'ARCHITECTURE.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown page's headings (outside code blocks), a repeated heading numbered as GitHub does. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const text = readFileSync(file, 'utf8').replace(/^```[^]*?^```/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = headingAnchor(heading);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Every relative link of the pages that names a missing file, or a heading its page does not have. */
function brokenLinks(files: readonly string[]): string[] {
  const broken: string[] = [];
  for (const page of files) {
    for (const [, target] of readFileSync(page, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, fragment] = target.split('#');
      const file = path === '' ? page : join(dirname(page), path);
      if (!existsSync(file)) broken.push(`${page}: ${target}`);
      else if (fragment !== undefined && file.endsWith('.md') && !anchorsOf(file).has(fragment))
        broken.push(`${page}: ${target} (no such heading)`);
    }
  }
  return broken;
}

test('when every page is read, then each relative link names a file of the repository, and a heading of it when it names one', () => {
  assert.equal(brokenLinks(pages), []);
});

test('when a page links to a missing file, a missing heading or one of its own headings, then only the two broken links are named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-docs-links-'));
  try {
    writeFileSync(join(dir, 'other.md'), "# Other\n\n## The store's bounds\n\n```sh\n# not a heading\n```\n");
    const page = join(dir, 'page.md');
    writeFileSync(
      page,
      [
        '# Page',
        '',
        '## From your tests: `appkernel/snapshots`',
        '',
        '[ok](other.md#the-stores-bounds) [own](#from-your-tests-appkernelsnapshots) [web](https://example.test/x.md)',
        '[gone](gone.md) [no heading](other.md#not-a-heading)',
      ].join('\n'),
    );
    assert.equal(brokenLinks([page]), [`${page}: gone.md`, `${page}: other.md#not-a-heading (no such heading)`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('when the README is measured, then it stays a front door (under 10,000 characters) and links every docs/ page', () => {
  const readme = readFileSync('README.md', 'utf8');
  assert.ok(readme.length < 10_000, `${readme.length} characters`);
  for (const page of pages.filter((p) => p.startsWith('docs'))) assert.ok(readme.includes(`](${page})`), page);
});

test('when ARCHITECTURE.md names a file of the repository (a test that holds an invariant, a file to touch), then that file exists', () => {
  const text = readFileSync('ARCHITECTURE.md', 'utf8');
  const named = [
    ...text.matchAll(
      /(?<![\w./-])((?:cli|server|mcp|web-profiler|panels|render|snapshots|core|tests|scripts|docs)\/[\w./-]*\.(?:ts|md|mjs))/g,
    ),
  ].map((m) => normalize(m[1]));
  assert.ok(named.length > 20, `${named.length} paths named`);
  assert.equal(
    [...new Set(named)].filter((path) => !existsSync(path)),
    [],
  );
});

test.run();
