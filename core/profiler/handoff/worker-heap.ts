import { setFlagsFromString } from 'node:v8';

/**
 * Where the profiler worker's old generation starts, in MB. V8 starts a heap's old generation small
 * and begins marking it when what is left before its limit is no more than its young generation.
 * The worker allocates fast (a batch of records, its stored entries, the summaries queued for the
 * index) and its young generation grows to 16 MB, so from its first collections on it marked and
 * compacted its whole heap after nearly every scavenge: about every 200 ms under load, 5 to 15 ms
 * of pause each, and as much again in V8's helper threads, some 5 µs of CPU per profiled request.
 * Starting the old generation at 64 MB leaves it room: two full collections in 8 s of load instead
 * of 28. The heap it may grow to (the worker's resource limits) is unchanged.
 */
const INITIAL_OLD_SPACE_MB = 64;

let set = false;

/**
 * Sets V8's initial old generation size for the isolates this process makes from now on: the
 * profiler worker's, made next (Node's Worker options have no such limit). The main thread's
 * isolate, made before, keeps its own.
 */
export function roomForTheWorkerHeap(): void {
  if (set) return;
  set = true;
  setFlagsFromString(`--initial-old-space-size=${INITIAL_OLD_SPACE_MB}`);
}
