// The profiler worker, made to exit when a second route table is registered (the test does so
// when it wants the worker gone): the hand-off's fallback to the main thread is tested with it.
import { parentPort } from 'node:worker_threads';
import '../../../../core/profiler/handoff/profiler-worker.js';

parentPort!.on('message', (message: { type: string; id?: number }) => {
  if (message.type === 'routes' && message.id === 1) process.exit(3);
});
