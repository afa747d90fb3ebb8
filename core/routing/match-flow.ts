import { MethodNotAllowedError, ResourceNotFoundError } from '../errors.js';
import type { MatchFailure, MatchResult } from './matcher.js';
import { toMatchPath } from './match-path.js';

/**
 * One pass over the routes for one match path (`hasPercent`: it holds a `%`): the winner (a
 * fresh 'match' result), or the declared methods of the routes that match the path but not
 * the method (405), or null (404).
 */
export type FindRoute = (
  method: string,
  matchPath: string,
  hasPercent: boolean,
) => MatchResult | readonly string[] | null;

/**
 * The Matcher contract's decision around a FindRoute: 405, then the GET/HEAD trailing-slash retry,
 * then 404. `slashEnds`: false when no route can match a path ending in `/`, so adding one is not tried.
 */
export function lookupWith(
  find: FindRoute,
  method: string,
  path: string,
  slashEnds = true,
): MatchResult | MatchFailure {
  const upper = upperCase(method);
  const found = findPath(find, upper, path);
  if (found === null) return retry(find, upper, path, slashEnds);
  if (isAllowedList(found)) return { type: 'method-not-allowed', path, allowed: found };
  return found;
}

export function matchWith(find: FindRoute, method: string, path: string): MatchResult {
  const result = lookupWith(find, method, path);
  if (result.type === 'not-found') throw new ResourceNotFoundError(result.path);
  if (result.type === 'method-not-allowed') throw new MethodNotAllowedError(result.path, result.allowed);
  return result;
}

/** The path with the trailing slash toggled (`/a` -> `/a/`, `/a//` -> `/a`), or null for `/`. */
export function slashToggled(path: string): string | null {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end -= 1;
  if (end === 0) return null;
  return end === path.length ? `${path}/` : path.slice(0, end);
}

function retry(find: FindRoute, method: string, path: string, slashEnds: boolean): MatchResult | MatchFailure {
  if (method !== 'GET' && method !== 'HEAD') return { type: 'not-found', path };
  const retryPath = slashToggled(path);
  if (retryPath === null) return { type: 'not-found', path };
  if (!slashEnds && retryPath.length > path.length) return { type: 'not-found', path: retryPath };
  const found = findPath(find, method, retryPath);
  if (found === null || isAllowedList(found)) return { type: 'not-found', path: retryPath };
  return { type: 'redirect', route: found.route, controller: found.controller, path: retryPath, params: found.params };
}

function findPath(find: FindRoute, method: string, path: string): MatchResult | readonly string[] | null {
  if (path.indexOf('%') === -1) return find(method, path, false);
  const matchPath = toMatchPath(path);
  return find(method, matchPath, matchPath.indexOf('%') !== -1);
}

function isAllowedList(found: MatchResult | readonly string[]): found is readonly string[] {
  return Array.isArray(found);
}

function upperCase(method: string): string {
  // The usual methods without a loop over their chars: about a tenth of a 405's lookup.
  if (
    method === 'GET' ||
    method === 'POST' ||
    method === 'PUT' ||
    method === 'DELETE' ||
    method === 'PATCH' ||
    method === 'HEAD'
  )
    return method;
  for (let i = 0; i < method.length; i++) {
    const c = method.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) return method.toUpperCase();
  }
  return method;
}
