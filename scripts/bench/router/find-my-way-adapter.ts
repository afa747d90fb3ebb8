import FindMyWay from 'find-my-way';
import { routeKey, type AdapterFactory } from './adapter.js';
import type { BenchRoute } from './workload.js';

function routerFor(routes: readonly BenchRoute[]) {
  const router = FindMyWay();
  for (const route of routes) router.on(route.method as 'GET', route.path, () => undefined, { key: routeKey(route) });
  return router;
}

/**
 * find-my-way has no 405: after a miss, the adapter asks the other methods of the table, as an
 * app would to answer 405 with an Allow header.
 */
export const findMyWay: AdapterFactory = (routes) => {
  const router = routerFor(routes);
  const methods = [...new Set(routes.map((r) => r.method))];
  return {
    name: 'find-my-way',
    lookup(method, path) {
      const found = router.find(method as 'GET', path);
      if (found !== null) return (found.store as { key: string }).key;
      for (const other of methods) if (other !== method && router.find(other as 'GET', path) !== null) return 405;
      return 404;
    },
  };
};

/** find() alone: a miss is one failed lookup, 404 and 405 not told apart (both read 404). */
export const findMyWayFindOnly: AdapterFactory = (routes) => {
  const router = routerFor(routes);
  return {
    name: 'find-my-way find()',
    tellsApart405: false,
    lookup(method, path) {
      const found = router.find(method as 'GET', path);
      return found === null ? 404 : (found.store as { key: string }).key;
    },
  };
};
