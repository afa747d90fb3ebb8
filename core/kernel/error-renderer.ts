import type { LogRecord } from '../log/log-record.js';
import type { RouteMiss } from '../routing/explain-miss.js';
import type { ExceptionData } from './exception-data.js';

/** What the error listener knows of a failed request, for its HTML page. */
export interface ErrorPageData {
  status: number;
  statusText: string;
  method: string;
  /** the absolute URL as requested */
  url: string;
  exception: ExceptionData;
  /** the failing request's log */
  log: readonly LogRecord[];
  /** the request's profile, when the profiler is on */
  token: string | null;
  /** for a 404 or 405 raised by routing: why the closest routes missed, and what was maybe meant */
  routing?: RouteMiss | null;
}

/**
 * Turns a failure into HTML. The kernel is handed one (render/error-renderer.ts in
 * `app serve`) and never imports HTML itself.
 */
export interface ErrorRenderer {
  /** the debug page: the exception chain, its traces and the request's log */
  debugPage(data: ErrorPageData): string;
  /** the page outside debug mode: the status only, nothing internal */
  productionPage(status: number, statusText: string): string;
}
