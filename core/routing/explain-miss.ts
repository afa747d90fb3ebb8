import { editDistance } from './edit-distance.js';
import { explain, type RouteExplanation } from './explain.js';
import { decodeParameter, toMatchPath } from './match-path.js';
import type { Route } from './route.js';
import type { RouteCollection } from './route-collection.js';
import { BoundedCache } from '../bounded-cache.js';

/** A GET route close to the missed path; `url` is null when no value fills its placeholders. */
export interface RouteSuggestion {
  name: string;
  /** the route's pattern, `/posts/{id}` */
  path: string;
  /** a path on this server that the route answers, built from the request's own segments or defaults */
  url: string | null;
}

/** Why a request found no route: the closest routes with their verdicts, and the GET routes it may have meant. */
export interface RouteMiss {
  method: string;
  path: string;
  /** nearest first: method and requirement misses, then paths by leading segments shared, then by edit distance */
  closest: RouteExplanation[];
  suggestions: RouteSuggestion[];
}

const CLOSEST = 5;
const SUGGESTIONS = 3;
/** Past this many edits a path counts as unrelated, and the closest are ranked by route order. */
const FAR = 24;

/** How near a verdict puts a route, before the edit distance of its path. */
const RANK: Record<RouteExplanation['verdict'], number> = {
  match: 0,
  method: 0,
  'trailing-slash': 1,
  requirement: 1,
  path: 2,
};

/** Misses already explained, by route table: a table's size tells when routes were added since. */
const explained = new WeakMap<RouteCollection, { size: number; misses: BoundedCache<string, RouteMiss> }>();
const MAX_EXPLAINED = 256;
/** Longer paths are explained each time: a key that long is not worth keeping. */
const MAX_KEPT_PATH = 1024;

/**
 * Explains a 404 or 405 for a page: `explain()` for every route, the few nearest kept. Computed
 * only when an error page or problem document is rendered, never on the matching path. The same
 * miss on the same table (a favicon, a robots.txt asked again and again) is explained once and
 * its answer shared, frozen (so what is made of it, such as its HTML, can be kept by it).
 */
export function explainMiss(routes: RouteCollection, method: string, path: string): RouteMiss {
  if (path.length > MAX_KEPT_PATH) return explainAnew(routes, method, path);
  let memo = explained.get(routes);
  if (memo === undefined || memo.size !== routes.size)
    explained.set(routes, (memo = { size: routes.size, misses: new BoundedCache(MAX_EXPLAINED) }));
  const key = `${method} ${path}`;
  let miss = memo.misses.get(key);
  if (miss === undefined) {
    miss = memo.misses.set(key, frozen(explainAnew(routes, method, path)));
  }
  return miss;
}

/** A copy of the miss that nothing can change, down to its explanations' method lists. */
function frozen(miss: RouteMiss): RouteMiss {
  return Object.freeze({
    ...miss,
    closest: Object.freeze(
      miss.closest.map((r) => Object.freeze({ ...r, methods: Object.freeze([...r.methods]) as string[] })),
    ) as RouteExplanation[],
    suggestions: Object.freeze(miss.suggestions.map((s) => Object.freeze({ ...s }))) as RouteSuggestion[],
  });
}

function explainAnew(routes: RouteCollection, method: string, path: string): RouteMiss {
  const byName = new Map(routes.all().map((route) => [route.name, route]));
  // explain() leaves the profiler's routes out unless the path is under /_profiler.
  const explanations = explain(routes, method, path);
  const ranked = explanations.map((explanation, i) => {
    const route = byName.get(explanation.name)!;
    const url = fill(route, path);
    const distance = editDistance(path, url ?? route.path, FAR);
    // Other internal routes (`_` names) come after the app's when only their path differs.
    const rank = RANK[explanation.verdict] + (explanation.verdict === 'path' && route.name.startsWith('_') ? 1 : 0);
    return { explanation, route, url, distance, rank, shared: sharedSegments(route, path), order: i };
  });
  // The more leading segments a route shares with the path, the nearer it is; edit distance only breaks ties.
  ranked.sort((a, b) => a.rank - b.rank || b.shared - a.shared || a.distance - b.distance || a.order - b.order);
  const suggestions = ranked
    .filter(
      (r) =>
        r.route.allows('GET') &&
        r.url !== path &&
        (r.explanation.verdict === 'requirement' || r.distance <= near(r.route)),
    )
    .slice(0, SUGGESTIONS)
    .map(({ route, url }) => ({
      name: route.name,
      path: route.path,
      url: url !== null && route.match(toMatchPath(url)) !== null ? url : null,
    }));
  return {
    method: method.toUpperCase(),
    path,
    closest: ranked.slice(0, CLOSEST).map((r) => r.explanation),
    suggestions,
  };
}

/**
 * How many of the path's leading segments the route has: equal text, or a placeholder the
 * segment could fill (`/hello/{name}` shares 1 with `/hello/`, `/` shares none).
 */
function sharedSegments(route: Route, path: string): number {
  const want = route.path.split('/').slice(1);
  const got = path.split('/').slice(1);
  let shared = 0;
  while (shared < want.length && shared < got.length) {
    const w = want[shared];
    const g = got[shared];
    const placeholder = w.startsWith('{') && w.endsWith('}') && g !== '';
    if (w !== g && !placeholder) break;
    shared++;
  }
  return shared;
}

/**
 * How many edits still make a typo of the route: a third of its own text, so that the request's
 * segments copied into its placeholders do not make any long path look close.
 */
function near(route: Route): number {
  let text = 0;
  for (const token of route.tokens) text += token.kind === 'text' ? token.text.length : token.prefix.length;
  return Math.floor(text / 3);
}

/**
 * The route's path with each placeholder filled from the request's segment at the same place
 * (as sent) when it satisfies the requirement, else from the default: `/posts/{id}` for
 * `/post/7` gives `/posts/7`. Null when a placeholder has neither.
 */
function fill(route: Route, path: string): string | null {
  const segments = path.split('/');
  let built = '';
  for (const token of route.tokens) {
    if (token.kind === 'text') {
      built += token.text;
      continue;
    }
    const index = (built + token.prefix).split('/').length - 1;
    const candidate = token.prefix === '/' || token.prefix === '' ? segments[index] : undefined;
    const value =
      candidate !== undefined && candidate !== '' && token.anchored.test(decodeParameter(candidate))
        ? candidate
        : route.defaultOf(token.name);
    if (value === undefined) return null;
    built += token.prefix + value;
  }
  return built;
}
