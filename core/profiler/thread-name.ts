import { writeFileSync } from 'node:fs';

/** The profiler worker's name in `top -H` and in the benchmarks' CPU by thread. */
export const PROFILER_THREAD_NAME = 'ak-profiler';
/** The store's compression thread's (storage/record-encoder.ts). */
export const COMPRESSION_THREAD_NAME = 'ak-compress';

/**
 * Names the calling thread for the operating system (Linux's /proc/thread-self/comm, 15 characters
 * at most), so that `top -H`, `ps -L` and the benchmarks (scripts/bench/cpu-per-request.ts) can
 * tell the profiler's threads from node's own. Elsewhere it does nothing.
 */
export function nameThisThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // not Linux, or /proc is not mounted: the thread keeps node's name
  }
}
