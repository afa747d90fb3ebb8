import type { RouterAdapter } from './adapter.js';
import type { BenchRequest } from './workload.js';

const LOOKUPS_PER_SAMPLE = 50_000;
let sink = 0;

/**
 * ns of CPU per lookup over `requests`, repeated to about LOOKUPS_PER_SAMPLE lookups. CPU time,
 * not wall time: on a shared machine, the time the process waits for a core is not the router's.
 */
function sample(router: RouterAdapter, requests: readonly BenchRequest[]): number {
  const passes = Math.max(1, Math.round(LOOKUPS_PER_SAMPLE / requests.length));
  const start = process.cpuUsage();
  for (let p = 0; p < passes; p++) {
    for (let i = 0; i < requests.length; i++)
      if (router.lookup(requests[i].method, requests[i].path) === 404) sink += 1;
  }
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / (passes * requests.length);
}

/** Warm-up: every group, a few times. */
export function warmUp(router: RouterAdapter, groups: ReadonlyMap<string, readonly BenchRequest[]>): void {
  for (let i = 0; i < 5; i++) for (const requests of groups.values()) sample(router, requests);
}

/** One round: a sample of every group, ns per lookup by kind. */
export function round(
  router: RouterAdapter,
  groups: ReadonlyMap<string, readonly BenchRequest[]>,
): Record<string, number> {
  const result: Record<string, number> = {};
  for (const [kind, requests] of groups) result[kind] = sample(router, requests);
  if (sink < 0) console.log(sink);
  return result;
}

export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
