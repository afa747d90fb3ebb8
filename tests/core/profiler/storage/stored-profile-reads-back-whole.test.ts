import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { profileForJson } from '../../../../cli/json-times.js';
import { runApp, startServe } from '../../../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../../../helpers/serve.js';

// The store writes a profile in a shorter form (stored-form.ts): read back from disk by another
// process, it must be the very profile the server showed while it was in memory.
const test = suite('a profile read back from the store (real bin)');

test('when a 200 and a 404 are profiled, then `app profiles show --json` after a restart prints the same profiles, log records included', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-stored-form-'));
  const store = join(dir, 'store');
  try {
    const serve = await startServe(['--store', store, '--no-watch'], { cwd: dir });
    const shown: Record<string, any> = {};
    try {
      for (const path of ['/hello/ann', '/robots.txt']) {
        const token = (await fetchText(`${serve.base}${path}`)).headers['x-debug-token'];
        shown[token] = await fetchProfileJson(serve.base, token);
      }
    } finally {
      assert.is(await serve.stop(), 0);
    }
    for (const [token, profile] of Object.entries(shown)) {
      const r = await runApp(['profiles', 'show', token, '--json', '--store', store]);
      assert.is(r.code, 0, r.stderr);
      const read = JSON.parse(r.stdout);
      assert.ok(
        profile.collectors.log.records.some((x: { message: string }) => x.message.startsWith('Notified event "')),
        "the log has the dispatcher's records",
      );
      // --json writes points in time as ISO 8601; the rest is the stored profile as the server serves it.
      assert.equal(read.collectors.log, profileForJson(profile).collectors.log);
      assert.equal(read, profileForJson(profile));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
