import { MethodNotAllowedError, MethodNotAllowedHttpError, NotFoundHttpError, ResourceNotFoundError } from '../errors.js';
import { Response } from '../http/response.js';
import type { Matcher, MatchFailure, MatchResult } from '../routing/matcher.js';
import type { Request } from '../http/request.js';
import type { KernelEvent } from './kernel-event.js';

/**
 * Matches the request (kernel.request, first). A match becomes request
 * attributes and an INFO record on channel `request`; a GET/HEAD trailing-slash
 * match becomes a 301; routing failures become 404/405 HTTP errors whose cause
 * is the routing failure.
 */
export class RouterListener {
  constructor(private readonly matcher: () => Matcher) {}

  readonly onKernelRequest = (event: KernelEvent): void => {
    const request = event.request;
    if (!request.traced) return this.match(event);
    const start = request.elapsed();
    try {
      this.match(event);
    } finally {
      request.phases.push({ name: 'routing', start, duration: request.since(start) });
    }
  };

  private match(event: KernelEvent): void {
    const request = event.request;
    let result: MatchResult;
    if (request.traced) {
      try {
        result = this.matcher().match(request.method, request.path);
      } catch (error) {
        throw error instanceof ResourceNotFoundError || error instanceof MethodNotAllowedError ? routingHttpError(error, request) : error;
      }
    } else {
      // Outside debug no page shows a trace: the errors are built without one, and handed over without a throw.
      const found = this.matcher().lookup(request.method, request.path);
      if (found.type === 'not-found' || found.type === 'method-not-allowed') {
        event.fail(routingHttpError(withoutStackTrace(() => routingError(found)), request, false));
        return;
      }
      result = found;
    }
    request.attributes.route = result.route;
    request.attributes.controller = result.controller;
    if (result.type === 'redirect') {
      const query = request.queryString ? `?${request.queryString}` : '';
      request.extra.set('redirect', result.path);
      event.setResponse(Response.redirect(request.locationOf(`${result.path}${query}`), 301));
      return;
    }
    request.attributes.params = result.params;
    request.logger.withChannel('request').info(`Matched route "${result.route}".`, {
      route: result.route,
      route_parameters: { _route: result.route, _controller: result.controller, ...result.params },
      request_uri: request.url,
      method: request.method,
    });
  }
}

function routingError(failure: MatchFailure): ResourceNotFoundError | MethodNotAllowedError {
  return failure.type === 'not-found' ? new ResourceNotFoundError(failure.path) : new MethodNotAllowedError(failure.path, failure.allowed);
}

/** The spec'd 404 or 405 (ARCHITECTURE.md) for a routing failure, which it keeps as its cause. */
function routingHttpError(error: ResourceNotFoundError | MethodNotAllowedError, request: Request, traced = true): Error {
  const from = request.referer !== null ? ` (from "${request.referer}")` : '';
  const target = `${request.method} ${request.urlWithoutQuery}`;
  // Built without a trace, then given the one that starts where the listener throws it, as if built
  // there (this helper is no frame of its own): a trace captured by the constructor would be thrown away.
  const httpError = withoutStackTrace(() => (error instanceof MethodNotAllowedError
    ? new MethodNotAllowedHttpError(error.allowed, `No route found for "${target}": Method Not Allowed (Allow: ${error.allowed.join(', ')})${from}`, { cause: error })
    : new NotFoundHttpError(`No route found for "${target}"${from}`, { cause: error })));
  if (traced) Error.captureStackTrace(httpError, routingHttpError);
  return httpError;
}

function withoutStackTrace<T>(build: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return build();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
