import { serialiseOnce } from '../../debug/request-recording.js';
import { explain } from '../../routing/explain.js';
import type { Route } from '../../routing/route.js';
import type { RouteCollection } from '../../routing/route-collection.js';
import type { RouteDefinitionData, RouterData } from '../profile.js';
import { redactText, type SecretValues } from '../../redaction/index.js';
import type { CollectContext } from './collect-context.js';
import { BoundedCache } from '../../bounded-cache.js';

/**
 * The panels of misses already explained, by route table (a table's size tells when routes were
 * added since) and "<METHOD> <path>": a 404 asked again and again gets the panel built the first
 * time, JSON text included (serialiseOnce), which the stored form splices in as it is.
 */
const explained = new WeakMap<RouteCollection, { size: number; panels: BoundedCache<string, RouterData> }>();
const MAX_EXPLAINED = 256;
/** Longer paths are explained each time: a key that long is not worth keeping. */
const MAX_KEPT_PATH = 1024;

/** The routing panel: the matched route and its (redacted) parameters, the redirect, or why every route missed. */
export function collectRouter({ request, trace, response, routes, requestData, secrets }: CollectContext): RouterData {
  const redirect = trace.redirect;
  const unmatched = request.attributes.route === null && (response.status === 404 || response.status === 405);
  const route = redirect ? null : request.attributes.route;
  if (unmatched && redirect === null && isEmpty(requestData.routeParams) && request.path.length <= MAX_KEPT_PATH) {
    return missPanel(routes, request.method, request.path);
  }
  return {
    route,
    params: requestData.routeParams,
    redirect,
    explain: unmatched ? explain(routes, request.method, request.path) : null,
    definition: route === null ? null : definitionOf(routes.get(route), secrets),
  };
}

/** The panel of a request no route answered, with no parameters and no redirect: the same for the same miss on the same table. */
function missPanel(routes: RouteCollection, method: string, path: string): RouterData {
  let memo = explained.get(routes);
  if (memo === undefined || memo.size !== routes.size)
    explained.set(routes, (memo = { size: routes.size, panels: new BoundedCache(MAX_EXPLAINED) }));
  const key = `${method} ${path}`;
  let panel = memo.panels.get(key);
  if (panel === undefined) {
    panel = memo.panels.set(
      key,
      serialiseOnce({
        route: null,
        params: {},
        redirect: null,
        explain: explain(routes, method, path),
        definition: null,
      }),
    );
  }
  return panel;
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

/**
 * The definitions of the routes met, as stored when the request carried no secret value (then
 * they depend on the route alone): one object, its JSON made once (serialiseOnce), for every request.
 */
const definitions = new WeakMap<Route, RouteDefinitionData>();

/** The matched route as defined: from the app's code, its defaults still scrubbed of the request's secret values. */
function definitionOf(route: Route | undefined, secrets: SecretValues): RouteDefinitionData | null {
  if (!route) return null;
  if (secrets.size > 0) return definitionData(route, secrets);
  let definition = definitions.get(route);
  if (definition === undefined) definitions.set(route, (definition = serialiseOnce(definitionData(route, secrets))));
  return definition;
}

function definitionData(route: Route, secrets: SecretValues): RouteDefinitionData {
  const defaults: Record<string, string> = {};
  for (const [name, value] of Object.entries(route.defaults)) defaults[name] = secrets.scrub(redactText(value));
  return {
    path: route.path,
    methods: [...route.methods],
    requirements: { ...route.requirements },
    defaults,
    controller: route.controller,
  };
}
