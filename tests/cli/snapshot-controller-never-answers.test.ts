import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp } from '../helpers/cli.js';

const test = suite('app snapshot of a page whose controller never answers (real bin)');
let dir: string;

test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-snapshot-hang-'));
  writeFileSync(
    join(dir, 'app.config.ts'),
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp({ requestTimeoutMs: 500 })
  .get('home', '/', () => '<html><body><h1>Home</h1></body></html>')
  .get('hang', '/hang', () => new Promise(() => {}));
`,
  );
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('when a controller never answers, then its page is the 504 of the request timeout, snapshotted when --allow-status 504 accepts it, exit 0', async () => {
  const r = await runApp(['snapshot', '/hang', '/', '--dir', 'snaps', '--allow-status', '504'], {
    cwd: dir,
    env: { CI: '', UPDATE_SNAPSHOTS: '' },
  });
  assert.is(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  assert.match(r.stderr, /^written +\/hang /m);
  assert.match(r.stderr, /^written +\/ /m);
  const hang = readFileSync(join(dir, 'snaps', 'hang.snap.txt'), 'utf8');
  assert.ok(hang.startsWith('status 504\n'), hang);
  assert.match(hang, /did not answer within <DURATION>/);
});

test.run();
