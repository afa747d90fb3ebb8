import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { outline } from '../../snapshots/index.js';

// docs/snapshots.md shows a page and its outline: the outline shown must be the one outline() makes.
const test = suite('the outline example of docs/snapshots.md is what outline() makes');

test('when the page of the example is outlined, then the text is the one the page shows below it', () => {
  const page = readFileSync('docs/snapshots.md', 'utf8');
  const section = page.slice(page.indexOf('## From your tests'));
  const html = /const html = '([^']*)';/.exec(section)![1];
  const shown = /```ts\n[^]*?```\s*```\n([^`]*?)\n```/.exec(section)![1];
  assert.is(outline(html).trimEnd(), shown);
});

test.run();
