import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { serveFaults } from './fault-server.js';
import { profiledRequests } from './store-segments.js';

const test = suite('a store folder holding files appkernel never wrote');

test('when a segment holds only garbage and an index holds only noise, then the server starts with a warning for each, and serves and profiles', async () => {
  const root = mkdtempSync(join(tmpdir(), 'appkernel-faults-'));
  const store = join(root, 'store');
  mkdirSync(store);
  // Named as if by a process that ended: a live one's segments are left to it.
  const pid = spawnSync(process.execPath, ['-e', '']).pid!;
  writeFileSync(join(store, `000001-${pid}.log`), randomBytes(5000));
  writeFileSync(join(store, `000002-${pid}.log`), '');
  writeFileSync(join(store, `000002-${pid}.idx`), 'not an index\n{"token":"abcdef"}\n');
  writeFileSync(join(store, 'notes.txt'), 'left by someone');
  const t = await serveFaults({ storeDir: store });
  try {
    const warnings = t.lines.filter((line) => line.startsWith('warning:'));
    assert.is(warnings.length, 2, warnings.join('\n'));
    assert.match(
      warnings[0],
      new RegExp(
        `Segment 000001-${pid} .*its index is missing; ignored 5000 bytes of a half-written or damaged record; its index was rebuilt \\(0 profiles\\)`,
      ),
    );
    assert.match(
      warnings[1],
      new RegExp(`Segment 000002-${pid} .*index lines 1, 2 are garbled; its index was rebuilt \\(0 profiles\\)`),
    );
    assert.is((await fetchText(`${t.base}/_profiler/search?limit=10`)).status, 200);
    const [token] = await profiledRequests(t, 1);
    assert.is((await fetchProfileJson(t.base, token)).token, token);
  } finally {
    await t.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
