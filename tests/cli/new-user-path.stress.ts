// A stress suite (run by CI through `npm run test:stress`): it packs the package and installs it from the registry,
// 15 s of CPU and a network wait that npm test is kept fast without.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';
import { outputShows } from '../helpers/poll.js';

// The README's "Start your own project", as a new user runs it on a fresh folder: pack appkernel,
// install the tarball (its dependencies come from the npm registry), app init, serve, edit, break, fix.

const INSTALL_MS = 240_000;
const MARGIN_MS = 5000;

interface Run {
  code: number | null;
  out: string;
}

/** The new user's own shell: not a CI run (CI=true would forbid the first snapshot run from writing its snapshots). */
const { CI: _ci, ...USER_ENV } = process.env;

function run(command: string, args: string[], cwd: string, timeoutMs = 60_000): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd,
      env: {
        ...USER_ENV,
        NO_COLOR: '1',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
      },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out });
    });
  });
}

const test = suite('a new user: npm install <appkernel tarball>, app init, serve, edit, break, fix (npm registry)');
let work: string;
let project: string;
let serve: ServeProcess | null = null;

test.before(async () => {
  work = mkdtempSync(join(tmpdir(), 'appkernel-new-user-'));
  project = join(work, 'my-app');
  mkdirSync(project);
});

test.after(async () => {
  await serve?.stop();
  rmSync(work, { recursive: true, force: true });
});

test('npm pack, then npm install <tarball> in an empty folder, gives the `app` bin', async () => {
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], process.cwd());
  assert.is(packed.code, 0, packed.out);
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
  assert.ok(tarball, packed.out);
  const installed = await run('npm', ['install', join(work, tarball!)], project, INSTALL_MS);
  assert.is(installed.code, 0, installed.out);
});

test('npx app init scaffolds beside what the install left, and refuses to run again without --force', async () => {
  const init = await run('npx', ['--no-install', 'app', 'init'], project);
  assert.is(init.code, 0, init.out);
  for (const file of ['app.config.ts', 'tsconfig.json', 'public/favicon.ico', '.gitignore'])
    assert.ok(readdirSync(join(project, file.split('/').slice(0, -1).join('/') || '.')).length > 0);
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  assert.is(pkg.scripts.dev, 'app serve');
  assert.match(pkg.dependencies.appkernel, /\.tgz$/, 'the installed dependency is kept');
  const again = await run('npx', ['--no-install', 'app', 'init'], project);
  assert.is(again.code, 2);
  assert.match(again.out, /is not empty .*--force/);
});

test('npm run dev serves the new app; an edit is served right after "Reloaded"; a broken edit shows the banner; the fix removes it', async () => {
  serve = await startServe(['--store', join(work, 'store')], {
    cwd: project,
    bin: join(project, 'node_modules', 'appkernel', 'dist', 'cli', 'bin.js'),
  });
  const home = await fetchText(`${serve.base}/`);
  assert.is(home.status, 200);
  assert.match(home.body, /<h1>Home<\/h1>/);
  const favicon = await fetchText(`${serve.base}/favicon.ico`);
  assert.is(favicon.status, 200);
  assert.match(favicon.headers['content-type'], /icon/);
  assert.is((await fetchText(`${serve.base}/admin`)).status, 401);
  assert.is((await fetchText(`${serve.base}/admin`, { headers: { authorization: 'Bearer x' } })).status, 200);
  assert.is(
    (
      await fetchText(`${serve.base}/notes`, {
        method: 'POST',
        body: '{"text":"hi"}',
        headers: { accept: 'application/json' },
      })
    ).status,
    201,
  );
  assert.is(
    (
      await fetchText(`${serve.base}/notes`, {
        method: 'POST',
        body: '{"text":',
        headers: { accept: 'application/json' },
      })
    ).status,
    400,
  );

  const source = readFileSync(join(project, 'app.config.ts'), 'utf8');
  writeFileSync(join(project, 'app.config.ts'), source.replace('<h1>Home</h1>', '<h1>My home</h1>'));
  assert.ok(await outputShows(serve, /Reloaded [^\n]*Changed: app\.config\.ts\./, MARGIN_MS), serve.output());
  assert.match((await fetchText(`${serve.base}/`)).body, /<h1>My home<\/h1>/);

  writeFileSync(
    join(project, 'app.config.ts'),
    source.replace('const notes', 'const broken: any = undefined;\nbroken.region;\nconst notes'),
  );
  assert.ok(await outputShows(serve, /Reload failed/, MARGIN_MS), serve.output());
  const banner = await fetchText(`${serve.base}/`);
  assert.match(banner.body, /<h1>My home<\/h1>/, 'the last good app keeps serving');
  assert.match(banner.body, /appkernel-reload-failed[^]*reading &#39;region&#39;/);
  assert.match(banner.headers['x-app-reload-failed'], /app\.config\.ts:5:8$/);

  writeFileSync(join(project, 'app.config.ts'), source);
  assert.ok(await outputShows(serve, /(Reloaded [^]*){2}/, MARGIN_MS), serve.output());
  const fixed = await fetchText(`${serve.base}/`);
  assert.match(fixed.body, /<h1>Home<\/h1>/);
  assert.not.match(fixed.body, /appkernel-reload-failed/);
  assert.is(fixed.headers['x-app-reload-failed'], undefined);
});

test('npm test runs the snapshot test: written the first time, passed the second', async () => {
  const first = await run('npm', ['test'], project);
  assert.is(first.code, 0, first.out);
  const second = await run('npm', ['test'], project);
  assert.is(second.code, 0, second.out);
  assert.match(second.out, /passed +\//);
});

test.run();
