import { Worker } from 'node:worker_threads';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  isWriterAlive,
  isWriting,
  releaseSharedWriting,
  segmentName,
  sharedWriting,
} from '../../../../core/profiler/storage/store-files.js';

// A thread of this process writing a segment (the profiler worker) must make it alive for the
// other threads too, of that folder only, until it stops writing it or is released.

const test = suite('segments another thread of this process writes');

const storeFiles = new URL('../../../../core/profiler/storage/store-files.js', import.meta.url).href;

/** Runs `steps` in a fresh thread that adopted this thread's table; resolves to the thread id once they ran. */
function inThread(steps: string): Promise<{ threadId: number; worker: Worker }> {
  const worker = new Worker(
    `
    const { parentPort, workerData, threadId } = require('node:worker_threads');
    import(workerData.module).then((files) => {
      files.adoptSharedWriting(workerData.table);
      ${steps}
      parentPort.postMessage(threadId);
    });
  `,
    { eval: true, workerData: { module: storeFiles, table: sharedWriting() } },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', (threadId: number) => resolve({ threadId, worker }));
    worker.once('error', reject);
  });
}

test('when a worker marks a segment as being written, then this thread sees it alive in that folder only, until the worker stops or is released', async () => {
  const name = segmentName(7, process.pid);
  assert.not.ok(isWriterAlive('/tmp/folder-a', name));
  const { threadId, worker } = await inThread(
    `files.markWriting('/tmp/folder-a', '${name.base}', true); files.markWriting('/tmp/folder-a', '000008-${process.pid}', true);`,
  );
  try {
    assert.ok(isWriterAlive('/tmp/folder-a', name), 'alive in its folder');
    assert.ok(isWriting('/tmp/folder-a/', name.base), 'the same folder, spelt otherwise');
    assert.not.ok(isWriterAlive('/tmp/folder-b', name), 'not in another folder');
    assert.not.ok(isWriterAlive('/tmp/folder-a', segmentName(9, process.pid)), 'nor another segment');
    await inThread(`files.markWriting('/tmp/folder-a', '${name.base}', false);`);
    assert.ok(isWriterAlive('/tmp/folder-a', name), 'another thread cannot end it');
    worker.postMessage('stop');
    releaseSharedWriting(threadId);
    assert.not.ok(isWriterAlive('/tmp/folder-a', name), 'released with its thread');
    assert.not.ok(isWriterAlive('/tmp/folder-a', segmentName(8, process.pid)));
  } finally {
    await worker.terminate();
  }
});

test.run();
