import type { RouterAdapter } from './adapter.js';
import type { BenchRequest } from './workload.js';

const LOOKUPS_PER_SAMPLE = 100_000;
let sink = 0;

/** ns per lookup over `requests`, repeated to about LOOKUPS_PER_SAMPLE lookups. */
function sample(router: RouterAdapter, requests: readonly BenchRequest[]): number {
  const passes = Math.max(1, Math.round(LOOKUPS_PER_SAMPLE / requests.length));
  const start = process.hrtime.bigint();
  for (let p = 0; p < passes; p++) {
    for (let i = 0; i < requests.length; i++) if (router.lookup(requests[i].method, requests[i].path) === 404) sink += 1;
  }
  return Number(process.hrtime.bigint() - start) / (passes * requests.length);
}

/** Warm-up on every group, then `rounds` samples per group; the median ns per lookup of each group. */
export function measure(router: RouterAdapter, groups: ReadonlyMap<string, readonly BenchRequest[]>, rounds: number): Record<string, number> {
  for (let i = 0; i < 3; i++) for (const requests of groups.values()) sample(router, requests);
  const samples = new Map<string, number[]>([...groups.keys()].map((kind) => [kind, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [kind, requests] of groups) samples.get(kind)!.push(sample(router, requests));
  }
  if (sink < 0) console.log(sink);
  return Object.fromEntries([...samples].map(([kind, xs]) => [kind, median(xs)]));
}

export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
