import FindMyWay from 'find-my-way';
import { routeKey, type AdapterFactory } from './adapter.js';

/**
 * find-my-way's plain find(), what its users get: a miss is one failed lookup in the method's
 * tree, 404 and 405 not told apart (both read 404).
 */
export const findMyWayFind: AdapterFactory = (routes) => {
  const router = FindMyWay();
  for (const route of routes) router.on(route.method as 'GET', route.path, () => undefined, { key: routeKey(route) });
  return {
    name: 'find-my-way find()',
    tellsApart405: false,
    lookup(method, path) {
      const found = router.find(method as 'GET', path);
      return found === null ? 404 : (found.store as { key: string }).key;
    },
  };
};
