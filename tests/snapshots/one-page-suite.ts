// A one-test uvu suite that snapshot-modes.test.ts runs in a child process, as `npm test` runs a suite:
// it snapshots a page whose heading is $HEADING into $SNAPSHOT_DIR, leaving the mode to the environment.
import { test } from 'uvu';
import { matchSnapshot } from '../../snapshots/index.js';

test('the page with the heading from $HEADING matches its snapshot', () => {
  matchSnapshot(
    'page',
    `<html><head><title>Demo</title></head><body><h1>${process.env.HEADING}</h1><p>Some text.</p></body></html>`,
    { dir: process.env.SNAPSHOT_DIR },
  );
});

test.run();
