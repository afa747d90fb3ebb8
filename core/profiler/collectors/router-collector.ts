import { explain } from '../../routing/explain.js';
import type { Route } from '../../routing/route.js';
import type { RouteDefinitionData, RouterData } from '../profile.js';
import { redactText, type SecretValues } from '../redact.js';
import type { CollectContext } from './collect-context.js';

/** The routing panel: the matched route and its (redacted) parameters, the redirect, or why every route missed. */
export function collectRouter({ request, trace, response, routes, requestData, secrets }: CollectContext): RouterData {
  const redirect = trace.redirect;
  const unmatched = request.attributes.route === null && (response.status === 404 || response.status === 405);
  const route = redirect ? null : request.attributes.route;
  return {
    route,
    params: requestData.routeParams,
    redirect,
    explain: unmatched ? explain(routes, request.method, request.path) : null,
    definition: route === null ? null : definitionOf(routes.get(route), secrets),
  };
}

/** The matched route as defined: from the app's code, its defaults still scrubbed of the request's secret values. */
function definitionOf(route: Route | undefined, secrets: SecretValues): RouteDefinitionData | null {
  if (!route) return null;
  const defaults: Record<string, string> = {};
  for (const [name, value] of Object.entries(route.defaults)) defaults[name] = secrets.scrub(redactText(value));
  return { path: route.path, methods: [...route.methods], requirements: { ...route.requirements }, defaults, controller: route.controller };
}
