import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp } from '../helpers/cli.js';

// The snapshot command's acceptance, as written: `app snapshot / /hello/world /robots.txt` against the demo app
// writes, then passes, then fails with a diff after a change to the app. The change is made to the
// demo app itself (an app file that is the demo app plus a /robots.txt route), and every run is
// kept from opening a port: the requests are in-process.

const PATHS = ['/', '/hello/world', '/robots.txt'];
/** /robots.txt answers 404 in the demo app: a snapshot records it only when told. */
const ALLOW_404 = ['--allow-status', '404'];
const DEMO_APP = resolve(process.cwd(), 'dist/core/app/demo-app.js');
/** Snapshot modes off unless a test turns one on, whatever this run was started with. */
const PLAIN = { CI: '', UPDATE_SNAPSHOTS: '' };

/** The demo app, changed: /robots.txt now has a route (it was the demo's 404). */
const CHANGED_DEMO_APP = `import { Response } from ${JSON.stringify(PACKAGE_ENTRY)};
import { createDemoApp } from ${JSON.stringify(DEMO_APP)};

export const app = createDemoApp().get('robots', '/robots.txt', () => Response.text('User-agent: *\\nDisallow:\\n'));
`;

/** Preloaded into the bin: any attempt to listen on a port fails the run. */
const NO_LISTEN = `import net from 'node:net';
net.Server.prototype.listen = function () { throw new Error('app snapshot tried to listen on a port'); };
`;

const test = suite(
  'app snapshot against the demo app: writes, passes, then fails with a diff after a change (real bin, no port)',
);
let dir: string;
let env: Record<string, string>;

test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-snapshot-demo-'));
  writeFileSync(join(dir, 'no-listen.mjs'), NO_LISTEN);
  env = { ...PLAIN, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${join(dir, 'no-listen.mjs')}`.trim() };
});
test.after.each(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('when the port guard is on, then it does stop a bin that listens (so the checks below can fail)', async () => {
  const r = await runApp(['serve', '--port', '0', '--no-watch', '--store', join(dir, 'store')], {
    cwd: dir,
    env,
    timeoutMs: 15_000,
  });
  assert.is.not(r.code, 0);
  assert.match(r.stdout + r.stderr, /tried to listen on a port/);
});

test('when run three times, then it writes (exit 0), passes (exit 0), and after the demo app changes fails with a diff of that page alone (exit 1)', async () => {
  const first = await runApp(['snapshot', ...PATHS, ...ALLOW_404], { cwd: dir, env });
  assert.is(first.code, 0, first.stdout + first.stderr);
  assert.equal(
    readdirSync(join(dir, '__snapshots__')).sort(),
    ['hello__world.snap.txt', 'index.snap.txt', 'robots.txt.snap.txt'],
    'without --dir, the snapshots go to ./__snapshots__',
  );
  for (const path of PATHS) assert.match(first.stderr, new RegExp(`^written +${path.replace(/[.]/g, '\\.')} `, 'm'));
  const robots = readFileSync(join(dir, '__snapshots__', 'robots.txt.snap.txt'), 'utf8');
  assert.ok(robots.startsWith('status 404\n') && robots.includes('h1 "Error 404 Not Found"'), robots);

  const second = await runApp(['snapshot', ...PATHS, ...ALLOW_404], { cwd: dir, env });
  assert.is(second.code, 0, second.stdout + second.stderr);
  assert.is((second.stderr.match(/^passed /gm) ?? []).length, 3, second.stderr);
  assert.is(second.stdout, '', 'no diff when every page matches');

  writeFileSync(join(dir, 'changed-demo.ts'), CHANGED_DEMO_APP);
  const third = await runApp(['snapshot', ...PATHS, ...ALLOW_404, '--app', 'changed-demo.ts'], { cwd: dir, env });
  assert.is(third.code, 1, third.stdout + third.stderr);
  assert.match(third.stderr, /^passed +\/ /m);
  assert.match(third.stderr, /^passed +\/hello\/world /m);
  assert.match(third.stderr, /^failed +\/robots\.txt /m);
  assert.match(third.stderr, /1 of 3 pages? differs? .*--update/);
  assert.ok(third.stdout.includes('--- ') && third.stdout.includes('+++ GET /robots.txt'), third.stdout);
  assert.ok(third.stdout.includes('\n- status 404\n'), third.stdout);
  assert.ok(third.stdout.includes('\n+ status 200\n+ User-agent: *\n+ Disallow:\n'), third.stdout);
  assert.is(
    readFileSync(join(dir, '__snapshots__', 'robots.txt.snap.txt'), 'utf8'),
    robots,
    'a failed check leaves the file alone',
  );
});

test('when UPDATE_SNAPSHOTS=1 is set instead of --update, then the changed page is rewritten, and the next plain run passes', async () => {
  assert.is((await runApp(['snapshot', ...PATHS, ...ALLOW_404], { cwd: dir, env })).code, 0);
  writeFileSync(join(dir, 'changed-demo.ts'), CHANGED_DEMO_APP);
  const args = ['snapshot', ...PATHS, ...ALLOW_404, '--app', 'changed-demo.ts'];
  const updated = await runApp(args, { cwd: dir, env: { ...env, UPDATE_SNAPSHOTS: '1' } });
  assert.is(updated.code, 0, updated.stdout + updated.stderr);
  assert.match(updated.stderr, /^updated +\/robots\.txt /m);
  assert.ok(
    readFileSync(join(dir, '__snapshots__', 'robots.txt.snap.txt'), 'utf8').startsWith('status 200\nUser-agent: *\n'),
  );
  assert.is((await runApp(args, { cwd: dir, env })).code, 0);
  assert.not.ok(existsSync(join(dir, 'var')), 'no profile store was made: nothing is profiled to disk');
});

test.run();
