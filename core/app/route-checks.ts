import { compileMatcher } from '../routing/compiled-matcher.js';
import { RouteCollection } from '../routing/route-collection.js';
import type { Route } from '../routing/route.js';

/** A route that can never match: `by`, defined before it, always matches its requests first. */
export interface ShadowedRoute {
  route: Route;
  by: Route;
}

/**
 * The routes that can never match: an earlier route has the same pattern (same path, same
 * requirements) or, for a static path, a pattern that matches that path, and allows every method
 * the later one allows.
 */
export function findShadowedRoutes(routes: RouteCollection): ShadowedRoute[] {
  const all = routes.all();
  const found: ShadowedRoute[] = [];
  for (let later = 1; later < all.length; later++) {
    const route = all[later];
    for (let earlier = 0; earlier < later; earlier++) {
      const by = all[earlier];
      if (coversMethods(by, route) && (samePattern(by, route) || matchesStaticPath(by, route))) {
        found.push({ route, by });
        break;
      }
    }
  }
  return found;
}

/** One line per shadowed route, naming both. */
export function describeShadowedRoute({ route, by }: ShadowedRoute): string {
  return `Route "${route.name}" (${methodsOf(route)} ${route.path}) can never match: route "${by.name}" (${methodsOf(by)} ${by.path}), defined before it, always matches first.`;
}

function methodsOf(route: Route): string {
  return route.methods.length === 0 ? 'ANY' : route.methods.join('|');
}

function coversMethods(by: Route, route: Route): boolean {
  if (by.methods.length === 0) return true;
  if (route.methods.length === 0) return false;
  return route.methods.every(
    (method) => by.methods.includes(method) || (method === 'HEAD' && by.methods.includes('GET')),
  );
}

/** The same regex but for the names of its placeholders. */
function samePattern(a: Route, b: Route): boolean {
  return unnamed(a.regex) === unnamed(b.regex) && a.regex.flags === b.regex.flags;
}

function unnamed(regex: RegExp): string {
  return regex.source.replace(/\(\?<[A-Za-z_$][\w$]*>/g, '(');
}

function matchesStaticPath(by: Route, route: Route): boolean {
  if (route.staticPath === null || by.staticPath !== null) return false;
  const alone = new RouteCollection().add(by.name, {
    path: by.path,
    methods: by.methods,
    requirements: { ...by.requirements },
    defaults: { ...by.defaults },
    controller: by.controller,
  });
  const result = compileMatcher(alone).lookup(route.methods[0] ?? 'GET', route.path);
  return result.type === 'match';
}
