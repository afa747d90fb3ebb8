import type { Request } from '../http/request.js';
import type { Logger } from '../log/logger.js';
import type { RequestTrace } from '../kernel/request-trace.js';

/**
 * What a controller receives: the request, its route parameters, a logger on channel `app`, URL
 * generation, and the request's trace (`trace.addEntry(panel, value)` keeps a value for a profiler panel).
 */
export interface ControllerContext {
  request: Request;
  trace: RequestTrace;
  params: Record<string, string>;
  log: Logger;
  generate(route: string, params?: Record<string, string | number>, options?: { absolute?: boolean }): string;
}

/**
 * A controller returns a Response, a string (HTML), or any other value (JSON),
 * synchronously or as a promise. Whatever it throws becomes an error response.
 */
export type Controller = (context: ControllerContext) => unknown;
