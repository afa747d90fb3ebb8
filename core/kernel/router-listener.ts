import {
  MethodNotAllowedError,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  ResourceNotFoundError,
} from '../errors.js';
import { Response } from '../http/response.js';
import type { Matcher, MatchFailure, MatchResult } from '../routing/matcher.js';
import type { Request } from '../http/request.js';
import type { LogRecord } from '../log/log-record.js';
import { interpolate } from '../log/logger.js';
import type { KernelEvent } from './kernel-event.js';
import { stackBelowHeader } from './flatten-exception.js';
import { Phases } from './request-trace.js';

/**
 * Matches the request (kernel.request, first). A match becomes request
 * attributes and an INFO record on channel `request`; a GET/HEAD trailing-slash
 * match becomes a 301; routing failures become 404/405 HTTP errors whose cause
 * is the routing failure. In debug the errors carry their stack traces; outside
 * debug no page shows one, so they are built without, and handed over without a throw.
 */
export class RouterListener {
  readonly #find: (event: KernelEvent) => MatchResult | null;

  constructor(
    private readonly matcher: () => Matcher,
    options: { stackTraces: boolean } = { stackTraces: true },
  ) {
    this.#find = options.stackTraces ? this.#matchOrThrow : this.#lookup;
  }

  readonly onKernelRequest = (event: KernelEvent): void => {
    const trace = event.trace;
    // Routing starts with this listener's call: the reading that began it.
    const start = trace.latest();
    try {
      this.match(event);
    } finally {
      trace.phase(Phases.routing, start);
    }
  };

  readonly #matchOrThrow = (event: KernelEvent): MatchResult => {
    const request = event.request;
    const found = this.matcher().lookup(request.method, request.path);
    if (found.type === 'not-found' || found.type === 'method-not-allowed')
      throw routingHttpError(
        withoutStackTrace(() => routingError(found)),
        request,
      );
    return found;
  };

  readonly #lookup = (event: KernelEvent): MatchResult | null => {
    const request = event.request;
    const found = this.matcher().lookup(request.method, request.path);
    if (found.type === 'not-found' || found.type === 'method-not-allowed') {
      event.fail(
        routingHttpError(
          withoutStackTrace(() => routingError(found)),
          request,
          false,
        ),
      );
      return null;
    }
    return found;
  };

  private match(event: KernelEvent): void {
    const request = event.request;
    const result = this.#find(event);
    if (result === null) return;
    event.trace.matched(result);
    request.attributes.route = result.route;
    request.attributes.controller = result.controller;
    if (result.type === 'redirect') {
      const query = request.queryString ? `?${request.queryString}` : '';
      event.setResponse(Response.redirect(request.locationOf(`${result.path}${query}`), 301));
      return;
    }
    request.attributes.params = result.params;
    request.log.sink(new MatchedRouteRecord(Date.now(), result, request));
  }
}

/** The "Matched route" record's context, from the match and the request. */
export function matchedRouteContext(
  route: string,
  controller: string,
  params: Record<string, string>,
  url: string,
  method: string,
): Record<string, unknown> {
  return { route, route_parameters: { _route: route, _controller: controller, ...params }, request_uri: url, method };
}

/**
 * The "Matched route" INFO record on channel `request`. Its context is made when first read: the
 * profiler's hand-off refers to the match instead (request-record.ts), and the worker makes it again.
 */
export class MatchedRouteRecord implements LogRecord {
  readonly level = 'INFO';
  readonly channel = 'request';
  readonly message: string;
  #context: Record<string, unknown> | null = null;

  constructor(
    readonly time: number,
    readonly match: MatchResult,
    readonly request: Request,
  ) {
    const message = `Matched route "${match.route}".`;
    this.message = message.includes('{') ? interpolate(message, this.context) : message;
  }

  get context(): Record<string, unknown> {
    this.#context ??= matchedRouteContext(
      this.match.route,
      this.match.controller,
      this.match.params,
      this.request.url,
      this.request.method,
    );
    return this.#context;
  }

  /** As JSON, the plain record it stands for (its request is no part of it). */
  toJSON(): LogRecord {
    return { time: this.time, level: this.level, channel: this.channel, message: this.message, context: this.context };
  }
}

function routingError(failure: MatchFailure): ResourceNotFoundError | MethodNotAllowedError {
  return failure.type === 'not-found'
    ? new ResourceNotFoundError(failure.path)
    : new MethodNotAllowedError(failure.path, failure.allowed);
}

/** The spec'd 404 or 405 (ARCHITECTURE.md) for a routing failure, which it keeps as its cause. */
function routingHttpError(
  error: ResourceNotFoundError | MethodNotAllowedError,
  request: Request,
  traced = true,
): Error {
  const from = request.referer !== null ? ` (from "${request.referer}")` : '';
  const target = `${request.method} ${request.urlWithoutQuery}`;
  // Built without a trace, then given the one that starts where the listener throws it, as if built
  // there (this helper is no frame of its own): a trace captured by the constructor would be thrown away.
  const httpError = withoutStackTrace(() =>
    error instanceof MethodNotAllowedError
      ? new MethodNotAllowedHttpError(
          error.allowed,
          `No route found for "${target}": Method Not Allowed (Allow: ${error.allowed.join(', ')})${from}`,
          { cause: error },
        )
      : new NotFoundHttpError(`No route found for "${target}"${from}`, { cause: error }),
  );
  if (traced) {
    Error.captureStackTrace(httpError, routingHttpError);
    // The routing failure is found where the HTTP error is thrown: it shows the same frames,
    // captured and formatted once (a stack costs about a µs a frame, twice: capture and format).
    const frames = stackBelowHeader(httpError);
    if (frames === undefined) Error.captureStackTrace(error, routingHttpError);
    else error.stack = `${String(error)}${frames}`;
  }
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
