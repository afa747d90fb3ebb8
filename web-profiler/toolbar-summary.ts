import type { Request } from '../core/http/request.js';
import type { Response } from '../core/http/response.js';
import { EXCEPTION_KEY } from '../core/kernel/error-listener.js';
import type { ExceptionData } from '../core/kernel/exception-data.js';
import type { SecurityData } from '../core/kernel/trace-data.js';
import type { LogLevel } from '../core/log/log-record.js';

/** What the toolbar shows of one request, known at kernel.response: counts and names, no message text. */
export interface ToolbarSummary {
  token: string;
  status: number;
  method: string;
  route: string | null;
  controller: string | null;
  /** ms since the request started */
  duration: number;
  /** records per level, in the order the levels first appear */
  log: Partial<Record<LogLevel, number>>;
  /** the classes of the exception chain, outermost first; empty when nothing was thrown */
  exceptions: string[];
  security: { decision: SecurityData['decision']; rule: string | null };
  /** listener calls so far */
  listeners: number;
}

/**
 * The one place the toolbar reads the request's trace. Cheap by design: it runs on the request
 * path for every HTML page, so it counts and copies names, and builds nothing of the profile.
 */
export function toolbarSummary(request: Request, response: Response, token: string): ToolbarSummary {
  const log: Partial<Record<LogLevel, number>> = {};
  for (const record of request.log.records) log[record.level] = (log[record.level] ?? 0) + 1;
  let listeners = 0;
  for (const event of request.events) listeners += event.listeners.length;
  const exception = request.extra.get(EXCEPTION_KEY) as ExceptionData | undefined;
  const security = request.extra.get('security') as SecurityData | undefined;
  return {
    token,
    status: response.status,
    method: request.method,
    route: request.attributes.route,
    controller: request.attributes.controller,
    duration: request.elapsed(),
    log,
    exceptions: exception ? exception.chain.map((record) => record.class) : [],
    security: { decision: security?.decision ?? 'none', rule: security?.rule ?? null },
    listeners,
  };
}
