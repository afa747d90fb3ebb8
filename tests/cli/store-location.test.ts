import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, startServe, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';

const test = suite('where the profile store lives: ./var/profiler, $APPKERNEL_PROFILER_DIR, --store');

async function recordOne(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const serve = await startServe(['--no-watch', ...args], { cwd, env });
  try {
    const token = (await fetchText(`${serve.base}/robots.txt`)).headers['x-debug-token'];
    await fetchProfileJson(serve.base, token);
    return token;
  } finally {
    assert.is(await serve.stop(), 0);
  }
}

async function listedIn(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const r = await runAppInProcess(['profiles', 'list', '--json', ...args], { cwd, env });
  assert.is(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { token: string }[]).map((row) => row.token);
}

test('when neither is given, then ./var/profiler under the working directory, for serve and for profiles list', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-store-default-'));
  try {
    const token = await recordOne(dir, [], { APPKERNEL_PROFILER_DIR: '' });
    assert.ok(existsSync(join(dir, 'var', 'profiler')));
    assert.ok((await listedIn(dir, [], { APPKERNEL_PROFILER_DIR: '' })).includes(token));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('when APPKERNEL_PROFILER_DIR is set, then both use it; --store wins over it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-store-env-'));
  const fromEnv = join(dir, 'from-env');
  try {
    const token = await recordOne(dir, [], { APPKERNEL_PROFILER_DIR: fromEnv });
    assert.ok(existsSync(fromEnv));
    assert.not.ok(existsSync(join(dir, 'var')));
    assert.ok((await listedIn(dir, [], { APPKERNEL_PROFILER_DIR: fromEnv })).includes(token));
    assert.equal(await listedIn(dir, ['--store', join(dir, 'other')], { APPKERNEL_PROFILER_DIR: fromEnv }), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('when --store names a folder that does not exist, then the commands say so, find nothing, and create no folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-store-missing-'));
  const missing = join(dir, 'typo', 'profilr');
  try {
    const list = await runApp(['profiles', 'list', '--json', '--store', missing], { cwd: dir });
    assert.is(list.code, 0, list.stderr);
    assert.equal(JSON.parse(list.stdout), []);
    assert.ok(list.stderr.includes(`No profile store at ${missing}`), list.stderr);
    for (const args of [
      ['profiles', 'show', 'latest'],
      ['profiles', 'prune', '--keep', '1'],
      ['profiles', 'clear'],
      ['replay', 'latest'],
    ]) {
      const r = await runAppInProcess([...args, '--store', missing], { cwd: dir });
      assert.ok(r.stderr.includes(`No profile store at ${missing}`), `${args.join(' ')}: ${r.stderr}`);
    }
    assert.not.ok(existsSync(join(dir, 'typo')), 'no folder was created');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
