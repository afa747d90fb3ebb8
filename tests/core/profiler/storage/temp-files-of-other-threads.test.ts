import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openFileStorage } from '../../../../core/profiler/storage/file-storage.js';
import { isStaleTempFile, tempFileOwner } from '../../../../core/profiler/storage/store-files.js';

const test = suite("a store's temporary files: another thread of the process may be between writing and renaming one");

let dir = '';
test.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-temp-files-'));
});
test.after.each(() => rmSync(dir, { recursive: true, force: true }));

test('when a temporary file is named, then its process and thread are read from its name, and an older name gives its process alone', () => {
  assert.equal(tempFileOwner(`.cutoff.json.${process.pid}-3.tmp`), { pid: process.pid, thread: 3 });
  assert.equal(tempFileOwner('.000001-42.idx.42.tmp'), { pid: 42, thread: null });
  assert.is(tempFileOwner('cutoff.json'), null);
});

test("when the store is opened, then another live thread's temporary file is kept, and this thread's own and a gone process's are removed", async () => {
  const otherThread = `.cutoff.json.${process.pid}-${threadId + 1}.tmp`;
  const ownThread = `.cutoff.json.${process.pid}-${threadId}.tmp`;
  const goneProcess = '.cutoff.json.2147483646-1.tmp';
  for (const file of [otherThread, ownThread, goneProcess]) writeFileSync(join(dir, file), '{}');
  const storage = await openFileStorage({ dir });
  await storage.search({ limit: 1 });
  assert.ok(existsSync(join(dir, otherThread)), "another thread's file is still there");
  assert.not.ok(existsSync(join(dir, ownThread)), "this thread's own leftover is removed");
  assert.not.ok(existsSync(join(dir, goneProcess)), "a gone process's file is removed");
  await storage.close();
});

test('when a temporary file is judged, then only one of this very thread or of a process that is gone is stale', () => {
  const alive = () => true;
  assert.not.ok(isStaleTempFile({ pid: process.pid, thread: threadId + 1 }, alive));
  assert.ok(isStaleTempFile({ pid: process.pid, thread: threadId }, alive));
  assert.not.ok(isStaleTempFile({ pid: 42, thread: 0 }, alive));
  assert.ok(isStaleTempFile({ pid: 42, thread: 0 }, () => false));
});

test.run();
