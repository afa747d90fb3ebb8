import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';

// app init writes only files of its own folder: a link among the files it would write or change
// (a package.json pointing outside, a dangling link where app.config.ts goes) stops it before it
// writes anything, naming the file.

const test = suite('app init never writes outside its folder (real bin)');
let dir: string;

test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-init-links-'));
});
test.after.each(() => rmSync(dir, { recursive: true, force: true }));

test('when package.json is a link to a file outside the folder, then exit 2 naming it, the outside file unchanged and nothing written', async () => {
  const outside = join(dir, 'outside.json');
  writeFileSync(outside, '{"name":"outside"}\n');
  const project = join(dir, 'project');
  mkdirSync(project);
  symlinkSync(outside, join(project, 'package.json'));
  const r = await runApp(['init', '--force'], { cwd: project });
  assert.is(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /"package\.json" in ".*" is a symbolic link: app init writes only files of the folder itself/);
  assert.is(readFileSync(outside, 'utf8'), '{"name":"outside"}\n');
  assert.equal(readdirSync(project), ['package.json']);
});

test('when a dangling link stands where app.config.ts goes, then exit 2 naming it, no raw EEXIST, and no half-written project', async () => {
  const project = join(dir, 'project');
  mkdirSync(project);
  symlinkSync(join(dir, 'nowhere.ts'), join(project, 'app.config.ts'));
  const r = await runAppInProcess(['init', '--force'], { cwd: project });
  assert.is(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /"app\.config\.ts" in ".*" is a symbolic link/);
  assert.not.match(r.stderr, /EEXIST/);
  assert.equal(readdirSync(project), ['app.config.ts']);
});

test('when public is a link to a folder outside, then exit 2 and nothing is written into it', async () => {
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  const project = join(dir, 'project');
  mkdirSync(project);
  symlinkSync(elsewhere, join(project, 'public'));
  const r = await runAppInProcess(['init', '--force'], { cwd: project });
  assert.is(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /"public" in ".*" is a symbolic link/);
  assert.equal(readdirSync(elsewhere), []);
});

test.run();
