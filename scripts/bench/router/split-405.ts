import type { BenchRequest, Workload } from './workload.js';

export const UNDECLARED_405 = '405, method in no route';
export const DECLARED_405 = '405, method in a route';

/**
 * The 405 requests by whether some route declares their method, when both parts have some:
 * find() answers the first from an empty method tree, before reading the path, while lookup()
 * matches the path for both to list the allowed methods.
 */
export function split405(requests: readonly BenchRequest[], workload: Workload): [string, BenchRequest[]][] {
  const declared = new Set(workload.routes.map((r) => r.method));
  const undeclared = requests.filter((r) => !declared.has(r.method));
  if (undeclared.length === 0 || undeclared.length === requests.length) return [];
  return [
    [UNDECLARED_405, undeclared],
    [DECLARED_405, requests.filter((r) => declared.has(r.method))],
  ];
}
