import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const test = suite('the instance key: processes that start at once in a new state folder share one key');

const MODULE = new URL('../../../core/profiler/instance-proof.js', import.meta.url).href;

/** The key a new process reads or creates in `dir`, as hex ("none" when it has none). */
function keyOfNewProcess(dir: string): Promise<string> {
  const script = `const { instanceKey } = await import(${JSON.stringify(MODULE)}); process.stdout.write(instanceKey(true)?.toString('hex') ?? 'none');`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, APPKERNEL_STATE_DIR: dir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

test('when several processes create the key at the same moment, then each reads the same whole key and no draft is left', async () => {
  for (let round = 0; round < 3; round++) {
    const dir = join(mkdtempSync(join(tmpdir(), 'appkernel-instance-key-')), 'state');
    try {
      const keys = await Promise.all(Array.from({ length: 6 }, () => keyOfNewProcess(dir)));
      assert.match(keys[0], /^[0-9a-f]{64}$/);
      assert.equal(new Set(keys).size, 1, keys.join('\n'));
      assert.equal(readdirSync(dir), ['instance-key']);
      assert.is(statSync(join(dir, 'instance-key')).mode & 0o777, 0o600);
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  }
});

test.run();
