import { HttpError, MethodNotAllowedError, ResourceNotFoundError } from '../errors.js';
import type { Request } from '../http/request.js';
import { reasonPhrase, Response } from '../http/response.js';
import { explainMiss, type RouteMiss } from '../routing/explain-miss.js';
import type { RouteCollection } from '../routing/route-collection.js';
import type { ErrorRenderer } from './error-renderer.js';
import type { ExceptionData, Frame } from './exception-data.js';
import { flattenException, statusOf, toError } from './flatten-exception.js';
import type { KernelEvent } from './kernel-event.js';

/**
 * kernel.exception: logs the uncaught error on channel `request` (ERROR for 4xx,
 * CRITICAL for 5xx) and answers with the debug error page, an RFC 9457 problem
 * document for JSON clients, or the plain production page.
 */
export class ErrorListener {
  readonly #productionPages = new Map<number, string>();
  readonly #productionProblems = new Map<number, string>();

  constructor(
    private readonly options: { debug: boolean; root: string; renderer: ErrorRenderer; routes?: RouteCollection },
  ) {}

  readonly onKernelException = (event: KernelEvent): void => {
    const request = event.request;
    const error = toError(event.error, request.attributes.route);
    const status = statusOf(error);
    // Outside debug a 4xx shows no trace anywhere; a 5xx keeps its frames for the terminal's "at <file> line <n>".
    const exception = flattenException(error, this.options.root, { frames: this.options.debug || status >= 500 });
    event.trace.threw(exception);
    const top = exception.chain[0];
    const frame = top.frames.find((f) => f.file !== null);
    const where = frame ? ` at ${frame.file} line ${frame.line ?? '?'}` : '';
    request.logger
      .withChannel('request')
      .log(status >= 500 ? 'CRITICAL' : 'ERROR', `Uncaught exception ${top.class}: "${top.message}"${where}`, {
        exception: { class: top.class, message: top.message, status },
      });
    const headers = error instanceof HttpError ? { ...error.headers } : {};
    const routing = this.options.debug ? this.routeMiss(request, error) : null;
    const response = request.prefersJson()
      ? this.problem(request, status, exception, routing)
      : this.page(request, status, exception, routing, event.trace.token);
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    event.setResponse(response);
  };

  /** Why routing failed, for a debug 404/405 whose cause is the router's own failure. */
  private routeMiss(request: Request, error: Error): RouteMiss | null {
    const cause = (error as Error & { cause?: unknown }).cause;
    if (!(error instanceof HttpError) || this.options.routes === undefined) return null;
    if (!(cause instanceof ResourceNotFoundError) && !(cause instanceof MethodNotAllowedError)) return null;
    return explainMiss(this.options.routes, request.method, request.path);
  }

  private page(
    request: Request,
    status: number,
    exception: ExceptionData,
    routing: RouteMiss | null,
    token: string | null,
  ): Response {
    const statusText = reasonPhrase(status);
    if (!this.options.debug) {
      // The production page depends on the status alone: rendered once per status.
      let html = this.#productionPages.get(status);
      if (html === undefined)
        this.#productionPages.set(status, (html = this.options.renderer.productionPage(status, statusText)));
      return Response.html(html, status);
    }
    return Response.html(
      this.options.renderer.debugPage({
        status,
        statusText,
        method: request.method,
        url: request.url,
        exception,
        log: request.log.records,
        token,
        routing,
      }),
      status,
    );
  }

  private problem(request: Request, status: number, exception: ExceptionData, routing: RouteMiss | null): Response {
    if (!this.options.debug) {
      // Like the production page, the production problem document depends on the status alone.
      let text = this.#productionProblems.get(status);
      if (text === undefined) this.#productionProblems.set(status, (text = productionProblem(status)));
      return new Response(text, status, { 'Content-Type': 'application/problem+json' });
    }
    const title = reasonPhrase(status);
    const headers = { 'Content-Type': 'application/problem+json' };
    // JSON.stringify of the whole document, made of parts: the frames and the route miss shared by
    // every request with the same stack or the same miss have their JSON made once.
    const head = JSON.stringify({
      type: 'about:blank',
      title,
      status,
      detail: exception.chain[0].message,
      instance: request.url,
    });
    const exceptions = exception.chain
      .map(
        ({ class: cls, message, status: s, frames }) =>
          `${JSON.stringify({ class: cls, message, status: s }).slice(0, -1)},"trace":${traceJson(frames)}}`,
      )
      .join(',');
    const miss = routing === null ? '' : `,"routing":${missJson(routing)}`;
    return new Response(`${head.slice(0, -1)},"exceptions":[${exceptions}]${miss}}`, status, headers);
  }
}

function productionProblem(status: number): string {
  const title = reasonPhrase(status);
  return JSON.stringify({ type: 'about:blank', title, status, detail: `The server returned a "${status} ${title}".` });
}

const traceJsons = new WeakMap<readonly Frame[], string>();
const missJsons = new WeakMap<RouteMiss, string>();

/** A problem document's `trace`: function, file and line of each frame; kept for frozen frames (stack-frames.ts). */
function traceJson(frames: readonly Frame[]): string {
  let json = traceJsons.get(frames);
  if (json === undefined) {
    json = JSON.stringify(frames.map((f) => ({ function: f.function, file: f.file, line: f.line })));
    if (Object.isFrozen(frames)) traceJsons.set(frames, json);
  }
  return json;
}

/** Kept for the frozen miss explainMiss() shares. */
function missJson(routing: RouteMiss): string {
  let json = missJsons.get(routing);
  if (json === undefined) {
    json = JSON.stringify(routing);
    if (Object.isFrozen(routing) && Object.isFrozen(routing.closest) && Object.isFrozen(routing.suggestions))
      missJsons.set(routing, json);
  }
  return json;
}
