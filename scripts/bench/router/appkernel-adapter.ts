import { compileMatcher } from '../../../core/routing/compiled-matcher.js';
import { RouteCollection } from '../../../core/routing/route-collection.js';
import { routeKey, type AdapterFactory } from './adapter.js';
import { toPlaceholders, type BenchRoute } from './workload.js';

function matcherFor(routes: readonly BenchRoute[]) {
  const collection = new RouteCollection();
  for (const route of routes)
    collection.add(routeKey(route), { path: toPlaceholders(route.path), methods: [route.method], controller: 'bench' });
  return compileMatcher(collection);
}

/** The routing decision: lookup() returns the failure instead of throwing it. */
export const appkernelLookup: AdapterFactory = (routes) => {
  const matcher = matcherFor(routes);
  return {
    name: 'appkernel lookup()',
    lookup(method, path) {
      const r = matcher.lookup(method, path);
      return r.type === 'match' ? r.route : r.type === 'method-not-allowed' ? 405 : 404;
    },
  };
};
