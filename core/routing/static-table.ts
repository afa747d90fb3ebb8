import { declaredMethods, type Route } from './route.js';

interface Candidate {
  index: number;
  route: Route;
  params: Record<string, string>;
  hasParams: boolean;
}

/** Everything that matches one static path, worked out ahead: the whole answer for that path. */
export interface StaticEntry {
  /** every route matching the path (static or not), in definition order, with its parameters */
  candidates: readonly Candidate[];
  /** their declared methods, for the 405 when none allows the method */
  allowed: readonly string[];
}

const FILTER_BITS = 4096;

/**
 * One entry per static route path (match-path form). An earlier placeholder route that also
 * matches the path is a candidate ahead of the static route: definition order beats specificity.
 */
export class StaticTable {
  readonly #entries = new Map<string, StaticEntry>();
  /** a bit per (length, last char) of the static paths: most other paths skip hashing */
  readonly #filter = new Uint8Array(FILTER_BITS);

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const path = route.staticPath;
      if (path === null || this.#entries.has(path)) continue;
      const candidates: Candidate[] = [];
      routes.forEach((other, index) => {
        const params = other.match(path);
        if (params !== null)
          candidates.push({ index, route: other, params, hasParams: Object.keys(params).length > 0 });
      });
      this.#entries.set(path, { candidates, allowed: Object.freeze(declaredMethods(candidates.map((c) => c.route))) });
      this.#filter[filterSlot(path)] = 1;
    }
  }

  get(path: string): StaticEntry | undefined {
    return this.#filter[filterSlot(path)] === 0 ? undefined : this.#entries.get(path);
  }
}

function filterSlot(path: string): number {
  return (path.length * 131 + path.charCodeAt(path.length - 1)) & (FILTER_BITS - 1);
}
