import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runApp, startServe, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';

const test = suite("the CLI run from a subfolder of the project reads the project's store");
const DEFAULT_STORE = { APPKERNEL_PROFILER_DIR: '', APPKERNEL_PROFILER_STORE: '' };
let project: string;
let token: string;

test.before(async () => {
  project = mkdtempSync(join(tmpdir(), 'appkernel-subfolder-'));
  writeFileSync(
    join(project, 'app.config.ts'),
    `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp().get('home', '/', () => 'home');
`,
  );
  mkdirSync(join(project, 'lib', 'deep'), { recursive: true });
  const serve = await startServe(['--no-watch'], { cwd: project, env: DEFAULT_STORE });
  try {
    token = (await fetchText(`${serve.base}/`)).headers['x-debug-token'];
    await fetchProfileJson(serve.base, token);
  } finally {
    assert.is(await serve.stop(), 0);
  }
});

test.after(() => rmSync(project, { recursive: true, force: true }));

test('when profiles list and show run two folders down, then they read <project>/var/profiler', async () => {
  const cwd = join(project, 'lib', 'deep');
  const list = await runApp(['profiles', 'list', '--json'], { cwd, env: DEFAULT_STORE });
  assert.is(list.code, 0, list.stderr);
  assert.equal(
    (JSON.parse(list.stdout) as { token: string }[]).map((p) => p.token),
    [token],
  );
  assert.is(list.stderr, '', 'no "No profile store" complaint');
  const show = await runAppInProcess(['profiles', 'show', 'latest'], { cwd, env: DEFAULT_STORE });
  assert.is(show.code, 0, show.stderr);
  assert.ok(show.stdout.includes(token), show.stdout);
});

test('when the subfolder is a project of its own (a package.json), then the walk stops there', async () => {
  const nested = join(project, 'packages', 'other');
  mkdirSync(nested, { recursive: true });
  writeFileSync(join(nested, 'package.json'), '{}');
  const list = await runAppInProcess(['profiles', 'list', '--json'], { cwd: nested, env: DEFAULT_STORE });
  assert.is(list.code, 0, list.stderr);
  assert.equal(JSON.parse(list.stdout), []);
  assert.ok(list.stderr.includes(`No profile store at ${join(nested, 'var', 'profiler')}`), list.stderr);
});

test('when --store is relative, then it is read from the working directory, not the project', async () => {
  const cwd = join(project, 'lib');
  const list = await runAppInProcess(['profiles', 'list', '--json', '--store', 'var/profiler'], {
    cwd,
    env: DEFAULT_STORE,
  });
  assert.equal(JSON.parse(list.stdout), []);
  assert.ok(list.stderr.includes(`No profile store at ${join(cwd, 'var', 'profiler')}`), list.stderr);
});

test.run();
