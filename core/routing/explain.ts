import { LinearMatcher } from './linear-matcher.js';
import type { MatchFailure, MatchResult } from './matcher.js';
import { slashToggled } from './match-flow.js';
import { decodeParameter, ENCODED_SLASH, toMatchPath } from './match-path.js';
import { DEFAULT_REQUIREMENT } from './requirement.js';
import type { Route, RouteVariableToken } from './route.js';
import type { RouteCollection } from './route-collection.js';
import { compileRoute } from './route-compiler.js';

export type RouteVerdict = 'match' | 'path' | 'requirement' | 'method' | 'trailing-slash';

export interface RouteExplanation {
  name: string;
  path: string;
  methods: string[];
  verdict: RouteVerdict;
  /** human sentence: why it does (not) match */
  detail: string;
}

interface Request {
  method: string;
  path: string;
  matchPath: string;
  /** the slash-toggled path, as sent, and its match path; null for `/` */
  retry: { path: string; matchPath: string } | null;
  /** what the matcher decides for the whole table */
  outcome: MatchResult | MatchFailure;
}

/**
 * Why each route does or does not match `method path`, in matching order, like Symfony's
 * `router:match`. Only the route the matcher picks gets the verdict 'match'; a later route
 * that matches too is reported under 'path', naming the winner.
 */
export function explain(routes: RouteCollection, method: string, path: string): RouteExplanation[] {
  const upper = method.toUpperCase();
  const retryPath = slashToggled(path);
  const request: Request = {
    method: upper,
    path,
    matchPath: toMatchPath(path),
    retry: retryPath === null ? null : { path: retryPath, matchPath: toMatchPath(retryPath) },
    outcome: new LinearMatcher(routes).lookup(upper, path),
  };
  return routes.all().flatMap((route) => {
    const [verdict, detail] = explainRoute(route, request);
    if (verdict !== 'match' && !explainedFor(route, path)) return [];
    return [{ name: route.name, path: route.path, methods: [...route.methods], verdict, detail }];
  });
}

/**
 * Whether a route belongs in the explanation of `path`: the profiler's own routes (`_profiler…`)
 * only when the path is under `/_profiler`, so that they do not crowd out the app's.
 */
export function explainedFor(route: Pick<Route, 'name'>, path: string): boolean {
  return (
    !route.name.startsWith('_profiler') ||
    path === '/_profiler' ||
    path.startsWith('/_profiler/') ||
    path.startsWith('/_profiler.')
  );
}

function explainRoute(route: Route, request: Request): [RouteExplanation['verdict'], string] {
  const { outcome } = request;
  if (route.match(request.matchPath) !== null) {
    if (!route.allows(request.method)) {
      return [
        'method',
        `Method "${request.method}" does not match any of the required methods (${route.methods.join(', ')})`,
      ];
    }
    if (outcome.type === 'match' && outcome.route === route.name) return ['match', 'Route matches!'];
    return ['path', `Route matches too, but route "${(outcome as MatchResult).route}" comes first`];
  }
  const retry = request.retry;
  if (retry !== null && route.match(retry.matchPath) !== null)
    return ['trailing-slash', trailingSlash(route, request, retry.path)];
  const requirement = failingRequirement(route, request.matchPath);
  if (requirement !== null) return ['requirement', requirement];
  return ['path', `Path "${route.path}" does not match${partingSegment(route, request.path)}`];
}

/**
 * Where route and path part, first segment first: `: segment 2 "y" is not "items"`. A
 * placeholder segment counts as the same; the first one that differs in text is named.
 */
function partingSegment(route: Route, path: string): string {
  // A placeholder that may span segments (`{path}` with `.+`) leaves no segment to compare against.
  if (route.tokens.some((t) => t.kind === 'variable' && !t.inSegment)) return '';
  const want = route.path.split('/').slice(1);
  const got = path.split('/').slice(1);
  // A trailing slash ends the path: `/hello/` has one segment, `/` none.
  if (got[got.length - 1] === '') got.pop();
  if (want[want.length - 1] === '') want.pop();
  for (let i = 0; i < Math.max(want.length, got.length); i++) {
    const w = want[i];
    const g = got[i];
    if (w === undefined) return `: segment ${i + 1} "${g}" is one more than the route has`;
    if (g === undefined) return `: the path ends before segment ${i + 1} "${w}"`;
    if (w === g || (w.startsWith('{') && w.endsWith('}') && !w.slice(1, -1).includes('{') && g !== '')) continue;
    return `: segment ${i + 1} "${g}" is not "${w}"`;
  }
  return '';
}

/** The sentence for a route that matches once the trailing slash is toggled, saying whether the matcher redirects. */
function trailingSlash(route: Route, request: Request, retryPath: string): string {
  const { outcome, method } = request;
  const would = `Would match "${retryPath}" with the trailing slash toggled`;
  if (outcome.type === 'redirect' && outcome.route === route.name)
    return `Would match with the trailing slash toggled: 301 to ${retryPath}`;
  if (method !== 'GET' && method !== 'HEAD') return `${would}, but only GET and HEAD requests are redirected`;
  if (!route.allows(method)) return `${would}, but not for method "${method}" (${route.methods.join(', ')})`;
  if (outcome.type === 'redirect') return `${would}, but route "${outcome.route}" comes first`;
  return `${would}, but a route matches the path as sent, so there is no redirect`;
}

/** When only requirements (or an encoded slash) stop the route: which one and the value it got. */
function failingRequirement(route: Route, matchPath: string): string | null {
  const variables = route.tokens.filter((t): t is RouteVariableToken => t.kind === 'variable');
  const loose = withRequirements(route, {});
  const values = loose.regex.exec(matchPath)?.groups;
  if (values === undefined) return null;
  for (const token of variables) {
    if (token.requirement === DEFAULT_REQUIREMENT) continue;
    if (withRequirements(route, { [token.name]: token.requirement }).regex.test(matchPath)) continue;
    const value = values[token.name];
    const got = value === undefined ? 'nothing' : `"${decodeParameter(value)}"`;
    return `Requirement for "{${token.name}}" (${token.requirement}) does not match ${got}`;
  }
  const m = route.regex.exec(matchPath)?.groups;
  for (const token of variables) {
    const value = m?.[token.name] ?? values[token.name];
    if (value !== undefined && value.includes(ENCODED_SLASH) && !route.acceptsEncodedSlash(token, value)) {
      return `Requirement for "{${token.name}}" (${token.requirement}) does not match "${decodeParameter(value)}": an encoded slash (%2F) does not fill a one-segment placeholder`;
    }
  }
  return `The requirements (${variables.map((t) => `{${t.name}}: ${t.requirement}`).join(', ')}) do not match together`;
}

/** Per route, its variants with only some requirements, compiled once: a 404 page explains every route. */
const variants = new WeakMap<Route, Map<string, Route>>();

/** The route with only the given requirement (or none), the others left to the default. */
function withRequirements(route: Route, requirements: Record<string, string>): Route {
  let compiled = variants.get(route);
  if (!compiled) variants.set(route, (compiled = new Map()));
  const key = JSON.stringify(requirements);
  let variant = compiled.get(key);
  if (!variant) {
    variant = compileRoute(route.name, {
      path: route.path,
      defaults: { ...route.defaults },
      requirements,
      controller: route.controller,
    });
    compiled.set(key, variant);
  }
  return variant;
}
