import type { Request } from '../core/http/request.js';
import type { Response } from '../core/http/response.js';
import { CALL_STRIDE, RecordingTrace, type RequestTrace } from '../core/kernel/request-trace.js';
import { HTTP_CLIENT_COLLECTOR, type OutgoingCall } from '../core/debug/http-client-capture.js';
import { DATABASE_COLLECTOR, QueryRecord } from '../core/debug/database-query.js';
import { repeatKey, REPEATED_QUERY_MIN, statementShape } from '../core/debug/statement-shape.js';
import type { SecurityData } from '../core/kernel/trace-data.js';
import type { LogLevel } from '../core/log/log-record.js';
import { levelAtLeast } from '../core/log/logger.js';

const DEPRECATION_CHANNEL = 'deprecation';

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
  /** records on the `deprecation` channel below WARNING (where Symfony logs deprecations), which no level count above flags */
  deprecations?: number;
  /** the classes of the exception chain, outermost first; empty when nothing was thrown */
  exceptions: string[];
  security: { decision: SecurityData['decision']; rule: string | null };
  /** listener calls so far */
  listeners: number;
  /** the outgoing HTTP calls the request made so far; null when none */
  outgoing?: { count: number; total: number } | null;
  /** the database queries so far, their time, and whether one statement ran REPEATED_QUERY_MIN times from one place; null when none */
  database?: { count: number; total: number; repeated: boolean } | null;
}

/**
 * The one place the toolbar reads the request's trace. Cheap by design: it runs on the request
 * path for every HTML page, so it counts and copies names, and builds nothing of the profile.
 */
export function toolbarSummary(
  request: Request,
  response: Response,
  trace: RequestTrace,
  token: string,
): ToolbarSummary {
  const log: Partial<Record<LogLevel, number>> = {};
  let deprecations = 0;
  for (const record of request.log.records) {
    log[record.level] = (log[record.level] ?? 0) + 1;
    if (record.channel === DEPRECATION_CHANNEL && !levelAtLeast(record.level, 'WARNING')) deprecations++;
  }
  const recorded = trace instanceof RecordingTrace ? trace : null;
  const listeners = recorded ? recorded.calls.length / CALL_STRIDE : 0;
  const exception = recorded?.exception;
  const security = recorded?.security;
  return {
    token,
    status: response.status,
    method: request.method,
    route: request.attributes.route,
    controller: request.attributes.controller,
    duration: request.elapsed(),
    log,
    deprecations,
    exceptions: exception ? exception.chain.map((record) => record.class) : [],
    security: { decision: security?.decision ?? 'none', rule: security?.rule ?? null },
    listeners,
    outgoing: outgoingCalls(recorded?.entries?.get(HTTP_CLIENT_COLLECTOR) as readonly OutgoingCall[] | undefined),
    database: databaseQueries(recorded?.entries?.get(DATABASE_COLLECTOR)),
  };
}

function databaseQueries(entries: readonly unknown[] | undefined): ToolbarSummary['database'] {
  if (!entries?.length) return null;
  let count = 0;
  let total = 0;
  let repeated = false;
  const seen = new Map<string, number>();
  for (const entry of entries) {
    if (!(entry instanceof QueryRecord)) continue;
    count++;
    total += entry.duration ?? 0;
    if (repeated) continue;
    const key = repeatKey(statementShape(entry.sql), entry.frame);
    if (key === null) continue;
    const times = (seen.get(key) ?? 0) + 1;
    seen.set(key, times);
    repeated = times >= REPEATED_QUERY_MIN;
  }
  return count === 0 ? null : { count, total, repeated };
}

function outgoingCalls(calls: readonly OutgoingCall[] | undefined): { count: number; total: number } | null {
  if (!calls?.length) return null;
  let total = 0;
  for (const call of calls) total += call.duration ?? 0;
  return { count: calls.length, total };
}
