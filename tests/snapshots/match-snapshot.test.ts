import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AppError } from '../../core/errors.js';
import { callerFile, sourceDirOf, stackFiles, suiteNameOf } from '../../snapshots/caller-source.js';
import {
  matchSnapshot,
  reportUnusedSnapshots,
  SnapshotMismatchError,
  SnapshotMissingError,
} from '../../snapshots/index.js';

const page = (heading: string) => `<html><head><title>Demo</title></head><body><main>
  <h1>${heading}</h1><p>Profile <a href="/_profiler/3f2a1c">3f2a1c</a> at 2024-05-01 12:00:00 UTC</p>
</main></body></html>`;

/** Runs `work` with the given environment variables set (or unset), then restores them. */
function withEnv(vars: Record<string, string | undefined>, work: () => void): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  };
  set(vars);
  try {
    work();
  } finally {
    set(saved);
  }
}

const snap = suite('matchSnapshot');
let dir: string;
// Explicit so that the suite behaves the same under UPDATE_SNAPSHOTS=1 or CI=true.
const mode = { update: false, ci: false };

snap.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-snap-'));
});
snap.after.each(() => {
  rmSync(dir, { recursive: true, force: true });
});

snap('when first run, then it writes <suite>.<name>.snap.txt holding the outline; then the same page passes', () => {
  matchSnapshot('404 page', page('Error 404 Not Found'), { dir, ...mode });
  assert.equal(readdirSync(dir), ['match-snapshot.404-page.snap.txt']);
  assert.is(
    readFileSync(join(dir, 'match-snapshot.404-page.snap.txt'), 'utf8'),
    'title "Demo"\nmain\n  h1 "Error 404 Not Found"\n  p\n    "Profile"\n    a[href=/_profiler/<TOKEN>] "<TOKEN>"\n    "at <TIME>"\n',
  );
  matchSnapshot('404 page', page('Error 404 Not Found').replace(/3f2a1c/g, '0a0b0c'), { dir, ...mode });
});

snap('when a heading changes, then it throws APP_ERR_SNAPSHOT_MISMATCH with a - expected / + actual diff', () => {
  matchSnapshot('page', page('Error 404 Not Found'), { dir, ...mode });
  try {
    matchSnapshot('page', page('Page Not Found'), { dir, ...mode });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, SnapshotMismatchError);
    assert.instance(error, AppError);
    const e = error as SnapshotMismatchError;
    assert.is(e.code, 'APP_ERR_SNAPSHOT_MISMATCH');
    assert.ok(e.message.includes('- title "Demo"') === false && e.message.includes('  title "Demo"'), e.message);
    assert.ok(e.message.includes('\n-   h1 "Error 404 Not Found"\n+   h1 "Page Not Found"\n'), e.message);
    assert.ok(e.message.includes('UPDATE_SNAPSHOTS=1'));
    assert.is(e.diff.split('\n').filter((l) => /^[-+] /.test(l)).length, 2);
    assert.not.ok((e.stack ?? '').includes('Page Not Found'), 'the stack does not repeat the diff');
  }
  assert.ok(
    readFileSync(join(dir, 'match-snapshot.page.snap.txt'), 'utf8').includes('Error 404 Not Found'),
    'a failure leaves the file alone',
  );
});

snap('when UPDATE_SNAPSHOTS=1, then a differing snapshot is rewritten', () => {
  matchSnapshot('page', page('Error 404 Not Found'), { dir, ...mode });
  withEnv({ UPDATE_SNAPSHOTS: '1', CI: undefined }, () => matchSnapshot('page', page('Page Not Found'), { dir }));
  assert.ok(readFileSync(join(dir, 'match-snapshot.page.snap.txt'), 'utf8').includes('h1 "Page Not Found"'));
  matchSnapshot('page', page('Page Not Found'), { dir, ...mode });
});

snap('when CI=true and the snapshot is missing, then it throws APP_ERR_SNAPSHOT_MISSING and writes nothing', () => {
  withEnv({ CI: 'true', UPDATE_SNAPSHOTS: undefined }, () => {
    assert.throws(
      () => matchSnapshot('new page', page('Hello'), { dir }),
      (e: unknown) =>
        e instanceof SnapshotMissingError && e.code === 'APP_ERR_SNAPSHOT_MISSING' && /CI=true/.test(e.message),
    );
  });
  assert.equal(readdirSync(dir), []);
});

snap('when CI=true and the snapshot exists, then it is checked as usual', () => {
  matchSnapshot('page', page('Hello'), { dir, ...mode });
  withEnv({ CI: 'true', UPDATE_SNAPSHOTS: undefined }, () => {
    matchSnapshot('page', page('Hello'), { dir });
    assert.throws(
      () => matchSnapshot('page', page('Bye'), { dir }),
      (e: unknown) => e instanceof SnapshotMismatchError,
    );
  });
});

snap('should accept a stored file with CRLF line endings', () => {
  matchSnapshot('page', page('Hello'), { dir, ...mode });
  const file = join(dir, 'match-snapshot.page.snap.txt');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/\n/g, '\r\n'));
  matchSnapshot('page', page('Hello'), { dir, ...mode });
});

snap('should refuse names that sanitise to nothing, and keep names inside the folder', () => {
  assert.throws(() => matchSnapshot('../..', page('x'), { dir, ...mode }), /Invalid snapshot name/);
  matchSnapshot('../../etc/passwd', page('x'), { dir, ...mode });
  assert.equal(readdirSync(dir), ['match-snapshot.etc-passwd.snap.txt']);
});

snap(
  'when a suite leaves a snapshot unused, then reportUnusedSnapshots warns about it (and not about other suites)',
  () => {
    matchSnapshot('used', page('x'), { dir, ...mode });
    writeFileSync(join(dir, 'match-snapshot.gone.snap.txt'), 'old\n');
    writeFileSync(join(dir, 'other-suite.gone.snap.txt'), 'old\n');
    const warnings: string[] = [];
    const unused = reportUnusedSnapshots({ dir, warn: (line) => warnings.push(line) });
    assert.equal(unused, [join(dir, 'match-snapshot.gone.snap.txt')]);
    assert.is(warnings.length, 1);
    assert.match(warnings[0]!, /unused snapshot .*match-snapshot\.gone\.snap\.txt/);
  },
);

snap.run();

// ---
const folder = suite('matchSnapshot: the snapshot folder');

folder(
  "when no dir is given, then snapshots go to __snapshots__ beside this test's source file (run from dist or not)",
  () => {
    matchSnapshot('sample page', page('Error 404 Not Found'));
    const file = join(process.cwd(), 'tests', 'snapshots', '__snapshots__', 'match-snapshot.sample-page.snap.txt');
    assert.ok(existsSync(file), file);
  },
);

folder('callerFile names the file that called the entry function, compiled, source-mapped or not', () => {
  function entry(): string | null {
    return callerFile(entry);
  }
  const file = entry();
  assert.ok(file, 'a caller was found');
  assert.is(suiteNameOf(file!), 'match-snapshot');
  assert.ok(sourceDirOf(file!).endsWith(join('', 'tests', 'snapshots')), file!);
});

folder('sourceDirOf maps dist/tests/... back to tests/... when that folder exists', () => {
  const root = process.cwd();
  assert.is(sourceDirOf(join(root, 'dist', 'tests', 'snapshots', 'x.test.js')), join(root, 'tests', 'snapshots'));
  assert.is(sourceDirOf(join(root, 'tests', 'snapshots', 'x.test.ts')), join(root, 'tests', 'snapshots'));
  assert.is(sourceDirOf('/nowhere/dist/tests/x.test.js'), '/nowhere/dist/tests');
});

folder('suiteNameOf drops the script extension and .test', () => {
  assert.is(suiteNameOf('/a/tests/error-pages.test.js'), 'error-pages');
  assert.is(suiteNameOf('/a/tests/error-pages.test.ts'), 'error-pages');
  assert.is(suiteNameOf('/a/tests/pages.mts'), 'pages');
});

folder('stackFiles reads paths and file URLs from V8 stack lines', () => {
  const stack = [
    'Error',
    '    at callerFile (file:///app/dist/snapshots/caller-source.js:40:17)',
    '    at Object.handler (/app/tests/pages.test.ts:12:3)',
    '    at file:///app/dist/tests/pages.test.js:3:1',
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  ].join('\n');
  assert.equal(stackFiles(stack), [
    '/app/dist/snapshots/caller-source.js',
    '/app/tests/pages.test.ts',
    '/app/dist/tests/pages.test.js',
  ]);
});

folder.after(() => {
  // Warns (on stderr) when a snapshot of this suite in tests/snapshots/__snapshots__ is no longer matched.
  reportUnusedSnapshots();
});

folder.run();
