import type { Request } from '../core/http/request.js';
import type { Response } from '../core/http/response.js';
import { redactPath, redactQueryString } from '../core/redaction/index.js';
import { terminalSafe } from '../render/text/terminal-safe.js';
import { isProfilerPath } from '../core/profiler/profiler-urls.js';

const RESET = '\x1b[0m';

export function statusColor(status: number): string {
  return status >= 500 ? '\x1b[31m' : status >= 400 ? '\x1b[33m' : status >= 300 ? '\x1b[36m' : '\x1b[32m';
}

/**
 * "GET /hello/world?password=[REDACTED] 200 1.4 ms 3f2a1c": secret query values are not printed
 * either. The fields are made terminal-safe before the status gets its colour.
 */
export function formatRequestLine(request: Request, response: Response, ms: number, color: boolean): string {
  return `${lineHead(request)} ${lineTail(response, ms, color)}`;
}

/**
 * formatRequestLine for `app serve`: a server under load is sent the same request again and again,
 * so the redacted, terminal-safe "METHOD path?query" of the last request is kept and reused while
 * the next one has the same method, target and matched route (what the redaction reads).
 */
export function requestLineFormatter(
  color: boolean,
  options: { profilerRequests?: boolean } = {},
): (request: Request, response: Response, ms: number) => string | null {
  const profilerRequests = options.profilerRequests ?? true;
  let method = '';
  let path = '';
  let query = '';
  let route: string | null = null;
  let params: Readonly<Record<string, string>> = {};
  let head: string | null = null;
  return (request, response, ms) => {
    // The profiler's own pages are the developer reading profiles, not the app at work: printed with --verbose only.
    if (!profilerRequests && isProfilerPath(request.path)) return null;
    const attributes = request.attributes;
    if (
      head === null ||
      request.path !== path ||
      request.method !== method ||
      request.queryString !== query ||
      attributes.route !== route ||
      !sameParams(attributes.params, params)
    ) {
      head = lineHead(request);
      method = request.method;
      path = request.path;
      query = request.queryString;
      route = attributes.route;
      params = { ...attributes.params };
    }
    return `${head} ${lineTail(response, ms, color)}`;
  };
}

function lineHead(request: Request): string {
  const query = request.queryString ? `?${redactQueryString(request.queryString)}` : '';
  return terminalSafe(`${request.method} ${redactPath(request.path, request.attributes)}${query}`);
}

function lineTail(response: Response, ms: number, color: boolean): string {
  const status = color ? `${statusColor(response.status)}${response.status}${RESET}` : String(response.status);
  const sent = response.header('x-debug-token');
  const token = sent ? ` ${terminalSafe(sent)}` : '';
  return `${status} ${ms.toFixed(1)} ms${token}`;
}

function sameParams(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  let count = 0;
  for (const name in a) {
    if (a[name] !== b[name]) return false;
    count++;
  }
  for (const name in b) if (--count < 0) return false;
  return count === 0;
}
