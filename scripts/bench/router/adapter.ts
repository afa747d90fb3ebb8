import type { BenchRoute } from './workload.js';

/** What a lookup decided: the key of the matched route (`GET /users/:id`), or 404 / 405. */
export type Outcome = string | 404 | 405;

/** One contender: built from the route table, answers one lookup at a time. */
export interface RouterAdapter {
  name: string;
  /** false when the router cannot tell a 405 from a 404 (its misses then all read 404) */
  tellsApart405?: boolean;
  lookup(method: string, path: string): Outcome;
}

export type AdapterFactory = (routes: readonly BenchRoute[]) => RouterAdapter;

export function routeKey(route: BenchRoute): string {
  return `${route.method} ${route.path}`;
}
