import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { serveFaults, type FaultServer } from './fault-server.js';
import { profiledRequests, segmentFiles } from './store-segments.js';

/**
 * A disk that can be filled and freed. As root: the store on a 256 KB tmpfs,
 * filled to the last page (tmpfs allocates pages) by a filler file. Otherwise: the store's open
 * segment replaced by a link to /dev/full, on which every write fails ENOSPC.
 */
interface FullDisk {
  storeDir: string;
  kind: string;
  fill(t: FaultServer): Promise<void>;
  free(): void;
  remove(): void;
}

function tmpfsDisk(): FullDisk | null {
  const mountPoint = mkdtempSync(join(tmpdir(), 'appkernel-tmpfs-'));
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountPoint], { stdio: 'ignore' }).status !== 0) {
    rmSync(mountPoint, { recursive: true, force: true });
    return null;
  }
  const filler = join(mountPoint, 'filler');
  return {
    storeDir: join(mountPoint, 'store'),
    kind: 'a full 256 KB tmpfs',
    async fill() {
      const fd = openSync(filler, 'w');
      const chunk = Buffer.alloc(4096, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    remove() {
      spawnSync('umount', [mountPoint], { stdio: 'ignore' });
      rmSync(mountPoint, { recursive: true, force: true });
    },
  };
}

function devFullDisk(): FullDisk {
  const root = mkdtempSync(join(tmpdir(), 'appkernel-devfull-'));
  const storeDir = join(root, 'store');
  mkdirSync(storeDir);
  let log = '';
  let kept = Buffer.alloc(0);
  return {
    storeDir,
    kind: 'a segment linked to /dev/full',
    async fill(t) {
      await profiledRequests(t, 1);
      [log] = segmentFiles(storeDir, 'log');
      kept = readFileSync(log);
      unlinkSync(log);
      symlinkSync('/dev/full', log);
    },
    free() {
      unlinkSync(log);
      writeFileSync(log, kept);
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const test = suite('the profile store on a full disk (ENOSPC)');
let disk: FullDisk;
let t: FaultServer;
test.before(async () => {
  disk = tmpfsDisk() ?? devFullDisk();
  t = await serveFaults({ storeDir: disk.storeDir });
});
test.after(async () => {
  await t.stop().catch(() => {});
  disk.remove();
});

test('when the disk is full, then responses still go out, one warning says profiles were dropped, and serving goes on; once there is room, profiles are stored again', async () => {
  await profiledRequests(t, 2);
  await disk.fill(t);
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => fetchText(`${t.base}/hello/n${i}`)));
  for (const r of answers) assert.ok(r.status === 200 && r.body.includes('Hello n'), `${disk.kind}: ${r.status}`);
  await new Promise((resolve) => setImmediate(resolve));
  await t.server.storage!.flush();
  const { dropped } = t.server.storage!.stats();
  assert.ok(dropped > 0, `profiles were dropped on ${disk.kind}`);
  const warnings = t.lines.filter((line) => line.startsWith('warning:'));
  assert.is(warnings.length, 1, `one warning, not one per profile:\n${t.lines.join('\n')}`);
  assert.match(warnings[0], /^warning: Could not store \d+ profiles? in .*ENOSPC.*dropped; serving goes on\.$/);
  assert.is((await fetchText(`${t.base}/`)).status, 200, 'serving goes on');

  disk.free();
  const [token] = await profiledRequests(t, 1, '/hello/room');
  assert.is((await fetchProfileJson(t.base, token)).url, `${t.base}/hello/room`);
  const missing = [];
  for (const r of answers)
    if ((await fetchText(`${t.base}/_profiler/${r.headers['x-debug-token']}.json`)).status === 404) missing.push(r);
  assert.is(missing.length, dropped, 'exactly the dropped profiles are missing; the others load');
});

test('when the server stops after the disk was full, then the store reopens without a warning: no half-written batch was left behind', async () => {
  const listed = await t.server.storage!.search({ limit: 1000 });
  await t.stop();
  const warnings: string[] = [];
  const storage = await openFileStorage({ dir: disk.storeDir, onWarning: (warning) => warnings.push(warning) });
  try {
    assert.equal(warnings, []);
    assert.equal(
      (await storage.search({ limit: 1000 })).map((row) => row.token),
      listed.map((row) => row.token),
    );
  } finally {
    await storage.close();
  }
});

test.run();
