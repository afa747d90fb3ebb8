import type { Request } from '../http/request.js';
import type { Logger } from '../log/logger.js';
import type { RequestTrace } from './request-trace.js';

/** The app's own spans on the request's timeline: `start(name)`/`stop(name)` or `await measure(name, fn)`. */
export interface ControllerStopwatch {
  start(name: string): void;
  /** stops the last span started under `name`; returns its duration in ms */
  stop(name: string): number;
  /** runs `fn` inside a span of its own, stopped whether `fn` returns or throws */
  measure<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
}

/**
 * What a controller's context records for the profiler. The kernel is handed them by whoever builds
 * it (core/debug/recording-tools.ts in `app serve`), so that it imports nothing of core/debug.
 */
export interface RecordingTools {
  /** a stopwatch for one request */
  stopwatch(): ControllerStopwatch;
  dump<T>(value: T): T;
  record(panel: string, entry: unknown): void;
}

/**
 * What a controller receives: the request, its route parameters, a logger on channel `app`, URL
 * generation, the request's trace (`trace.addEntry(panel, value)` keeps a value for a profiler
 * panel), and the profiler's tools: a stopwatch for its own spans on the timeline, dump() and
 * record() for the app's own panels. Without the profiler they record nothing.
 */
export interface ControllerContext {
  request: Request;
  trace: RequestTrace;
  params: Record<string, string>;
  log: Logger;
  generate(route: string, params?: Record<string, string | number>, options?: { absolute?: boolean }): string;
  stopwatch: ControllerStopwatch;
  /** shows `value` in the dump panel (and the `app serve` terminal); returns it */
  dump<T>(value: T): T;
  /** one entry for the app's panel `panel` (app.panel) */
  record(panel: string, entry: unknown): void;
}

/**
 * A controller returns a Response, a string (HTML), or any other value (JSON),
 * synchronously or as a promise. Whatever it throws becomes an error response.
 */
export type Controller = (context: ControllerContext) => unknown;
