import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, runAppInProcess } from '../helpers/cli.js';

const PATHS = ['/', '/hello/world', '/robots.txt'];
/** /robots.txt answers 404 in the demo app: a snapshot records it only when told. */
const ALLOW_404 = ['--allow-status', '404'];
/** Snapshot modes off unless a test turns one on, whatever this run was started with. */
const PLAIN = { CI: '', UPDATE_SNAPSHOTS: '' };

function appSource(heading: string): string {
  return `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('home', '/', () => '<html><head><title>Shop</title></head><body><h1>${heading}</h1><p>Open daily.</p></body></html>')
  .get('hello', '/hello/{name}', ({ params }) => \`<html><body><h1>Hello \${params.name}!</h1></body></html>\`);
`;
}

const test = suite('app snapshot (the real bin writes first)');
let dir: string;

test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-snapshot-cli-'));
});
test.after.each(() => {
  rmSync(dir, { recursive: true, force: true });
});

test('when run against the demo app, then it writes one snapshot per path (exit 0), and a second run passes (exit 0)', async () => {
  const first = await runApp(['snapshot', ...PATHS, ...ALLOW_404, '--dir', 'snaps'], { cwd: dir, env: PLAIN });
  assert.is(first.code, 0, first.stderr);
  assert.equal(readdirSync(join(dir, 'snaps')).sort(), [
    'hello__world.snap.txt',
    'index.snap.txt',
    'robots.txt.snap.txt',
  ]);
  assert.is((first.stderr.match(/^written /gm) ?? []).length, 3, first.stderr);
  const robots = readFileSync(join(dir, 'snaps', 'robots.txt.snap.txt'), 'utf8');
  assert.ok(robots.startsWith('status 404\n'), robots);
  assert.ok(
    robots.includes('h1 "Error 404 Not Found"') && robots.includes('No routes found for "/robots.txt/"'),
    robots,
  );
  assert.ok(robots.includes('at … (vendor/internal frames)'), "appkernel's and Node's frames are folded");
  assert.not.match(robots, /:\d+:\d+\)|line \d+/, 'no line number of code outside the app');
  assert.match(readFileSync(join(dir, 'snaps', 'hello__world.snap.txt'), 'utf8'), /h1 "Hello world!"/);

  const second = await runAppInProcess(['snapshot', ...PATHS, ...ALLOW_404, '--dir', 'snaps'], {
    cwd: dir,
    env: PLAIN,
  });
  assert.is(second.code, 0, second.stdout + second.stderr);
  assert.is((second.stderr.match(/^passed /gm) ?? []).length, 3, second.stderr);
  assert.is(second.stdout, '', 'no diff when every page matches');
});

test('when the app changes a heading, then it exits 1 with a diff of that heading; --update rewrites; then it passes', async () => {
  const appFile = join(dir, 'shop.ts');
  writeFileSync(appFile, appSource('Welcome'));
  const args = ['snapshot', ...PATHS, ...ALLOW_404, '--app', 'shop.ts', '--dir', 'snaps'];
  assert.is((await runAppInProcess(args, { cwd: dir, env: PLAIN })).code, 0);

  writeFileSync(appFile, appSource('Welcome back'));
  const changed = await runAppInProcess(args, { cwd: dir, env: PLAIN });
  assert.is(changed.code, 1, changed.stdout + changed.stderr);
  assert.ok(changed.stdout.includes('\n- h1 "Welcome"\n+ h1 "Welcome back"\n'), changed.stdout);
  assert.match(changed.stderr, /^failed +\/ /m);
  assert.match(changed.stderr, /1 of 3 pages? differs? .*--update/);
  assert.match(
    readFileSync(join(dir, 'snaps', 'index.snap.txt'), 'utf8'),
    /h1 "Welcome"\n/,
    'a failed check leaves the file alone',
  );

  const updated = await runAppInProcess([...args, '--update'], { cwd: dir, env: PLAIN });
  assert.is(updated.code, 0, updated.stderr);
  assert.match(updated.stderr, /^updated +\/ /m);
  assert.match(readFileSync(join(dir, 'snaps', 'index.snap.txt'), 'utf8'), /h1 "Welcome back"/);
  assert.is((await runAppInProcess(args, { cwd: dir, env: PLAIN })).code, 0);
});

test('when CI=true and a snapshot is missing, then it exits 1, says so, and writes nothing', async () => {
  const r = await runAppInProcess(['snapshot', '/', '--dir', 'snaps'], { cwd: dir, env: { ...PLAIN, CI: 'true' } });
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stderr, /^missing +\/ /m);
  assert.match(r.stderr, /CI=true forbids writing/);
  assert.not.ok(existsSync(join(dir, 'snaps', 'index.snap.txt')));
});

test('when a path does not start with /, then it exits with a usage error and writes nothing', async () => {
  const r = await runAppInProcess(['snapshot', 'hello', '--dir', 'snaps'], { cwd: dir, env: PLAIN });
  assert.is.not(r.code, 0);
  assert.match(r.stderr, /Invalid path "hello"/);
  assert.not.ok(existsSync(join(dir, 'snaps')));
});

test.run();
