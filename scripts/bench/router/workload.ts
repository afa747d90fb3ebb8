import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type Kind = 'static' | 'param' | 'wildcard' | '404' | '405';
export interface BenchRoute {
  method: string;
  path: string;
}
export interface BenchRequest {
  method: string;
  path: string;
  kind: Kind;
}
export interface Workload {
  name: string;
  routes: BenchRoute[];
  requests: BenchRequest[];
}

/** The folder of ../shared/bench/routes, or APPKERNEL_BENCH_ROUTES. */
export function routesFolder(): string {
  return process.env.APPKERNEL_BENCH_ROUTES ?? resolve(process.cwd(), '../shared/bench/routes');
}

/** `<set>.json` and `<set>.workload.json` from the routes folder; exits with a message when missing. */
export function loadWorkload(set: string): Workload {
  const folder = routesFolder();
  const routesFile = resolve(folder, `${set}.json`);
  const workloadFile = resolve(folder, `${set}.workload.json`);
  for (const file of [routesFile, workloadFile]) {
    if (!existsSync(file)) {
      console.error(
        `Benchmark data not found: ${file}\nRun from the repository root (next to ../shared) or set APPKERNEL_BENCH_ROUTES to the folder holding ${set}.json.`,
      );
      process.exit(2);
    }
  }
  const routes = JSON.parse(readFileSync(routesFile, 'utf8')) as BenchRoute[];
  const workload = JSON.parse(readFileSync(workloadFile, 'utf8')) as { requests: BenchRequest[] };
  return { name: set, routes, requests: workload.requests };
}

/** find-my-way's `:param` as appkernel's `{param}`, its trailing `*` as `{wildcard<.*>}`. */
export function toPlaceholders(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{wildcard<.*>}');
}
