import type { Request } from '../core/http/request.js';
import type { Response } from '../core/http/response.js';
import { redactPath, redactQueryString } from '../core/profiler/redact.js';
import { terminalSafe } from '../render/text/terminal-safe.js';

const RESET = '\x1b[0m';

export function statusColor(status: number): string {
  return status >= 500 ? '\x1b[31m' : status >= 400 ? '\x1b[33m' : status >= 300 ? '\x1b[36m' : '\x1b[32m';
}

/**
 * "GET /hello/world?password=[REDACTED] 200 1.4 ms 3f2a1c": secret query values are not printed
 * either. The fields are made terminal-safe before the status gets its colour.
 */
export function formatRequestLine(request: Request, response: Response, ms: number, color: boolean): string {
  const status = color ? `${statusColor(response.status)}${response.status}${RESET}` : String(response.status);
  const sent = response.header('x-debug-token');
  const token = sent ? ` ${terminalSafe(sent)}` : '';
  const query = request.queryString ? `?${redactQueryString(request.queryString)}` : '';
  return `${terminalSafe(`${request.method} ${redactPath(request.path, request.attributes)}${query}`)} ${status} ${ms.toFixed(1)} ms${token}`;
}
