import type { MatchFailure, Matcher, MatchResult } from './matcher.js';
import { lookupWith, matchWith } from './match-flow.js';
import { declaredMethods, type Route } from './route.js';
import type { RouteCollection } from './route-collection.js';

/** The reference: tries every route in definition order, the first match wins. */
export class LinearMatcher implements Matcher {
  constructor(private readonly routes: RouteCollection) {}

  match(method: string, path: string): MatchResult {
    return matchWith(this.#find, method, path);
  }

  lookup(method: string, path: string): MatchResult | MatchFailure {
    return lookupWith(this.#find, method, path);
  }

  readonly #find = (method: string, matchPath: string): MatchResult | readonly string[] | null => {
    const pathMatched: Route[] = [];
    for (const route of this.routes.all()) {
      const params = route.match(matchPath);
      if (params === null) continue;
      if (route.allows(method)) return { type: 'match', route: route.name, controller: route.controller, params };
      pathMatched.push(route);
    }
    return pathMatched.length > 0 ? declaredMethods(pathMatched) : null;
  };
}
