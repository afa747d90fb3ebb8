import type { Request } from '../core/http/request.js';
import type { Response } from '../core/http/response.js';
import { isProfilerPath } from '../core/profiler/profiler-urls.js';

/**
 * The only script is the search page's, a file of this origin (/_profiler/live-search.js): hence
 * `script-src 'self'`, never inline, and `connect-src 'self'` for its event stream. Their styles are one inline <style> and style attributes
 * whose values vary (the timeline's bars), which no hash list can cover: hence
 * 'unsafe-inline' for styles, and for styles only.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Sent with every answer under /_profiler: pages, JSON, redirects and errors alike. */
export const PROFILER_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** Adds the headers when the request is for a profiler path; they replace any the response had. */
export function applyProfilerSecurityHeaders(request: Request, response: Response): void {
  if (!isProfilerPath(request.path)) return;
  for (const [name, value] of Object.entries(PROFILER_SECURITY_HEADERS)) response.setHeader(name, value);
}
