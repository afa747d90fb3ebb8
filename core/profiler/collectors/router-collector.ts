import { explain } from '../../routing/explain.js';
import type { RouterData } from '../profile.js';
import type { CollectContext } from './collect-context.js';

/** The routing panel: the matched route and its (redacted) parameters, the redirect, or why every route missed. */
export function collectRouter({ request, trace, response, routes, requestData }: CollectContext): RouterData {
  const redirect = trace.redirect;
  const unmatched = request.attributes.route === null && (response.status === 404 || response.status === 405);
  return {
    route: redirect ? null : request.attributes.route,
    params: requestData.routeParams,
    redirect,
    explain: unmatched ? explain(routes, request.method, request.path) : null,
  };
}
