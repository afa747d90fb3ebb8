import { MAX_DEPTH, MAX_VALUES, redactData } from './redact-data.js';
import { redactRecord } from './redact-record.js';
import { redactText } from './redact-text.js';
import { isSecretRouteParam } from './route-params.js';
import { looksSecret } from './secret-names.js';
import { SecretValues } from './secret-values.js';

/** A log record as redaction reads it: core/log's LogRecord is one (redaction lies below the log). */
export interface LoggedRecord<Level extends string = string> {
  time: number;
  level: Level;
  channel: string;
  message: string;
  context: Record<string, unknown>;
}

/** One error of a chain as redaction reads it: core/kernel's ExceptionRecord is one. */
export interface ExceptionLink {
  message: string;
  headers?: Record<string, string>;
  frames?: { excerpt?: { lines: string[] } }[];
}

/**
 * A stored copy of a log record: its message and every string of its context through the text
 * policy, the values of secret-looking context keys replaced at any depth ("password", "nested.token"),
 * and in the message too (a "{key}" placeholder copied them there). The router's "route_parameters"
 * follow the route parameter rule (the profiler's own {token} is kept).
 */
export function redactLogRecord<Level extends string>(
  record: LoggedRecord<Level>,
  secrets: SecretValues,
  route: string | null = null,
): LoggedRecord<Level> {
  const found = new SecretValues();
  const isSecretKey = (path: string, key: string) =>
    path === `route_parameters.${key}` ? isSecretRouteParam(route, key) : looksSecret(key);
  const context = redactData(
    record.context,
    (s) => secrets.scrub(redactText(s)),
    (_, value) => addValue(found, value),
    isSecretKey,
  ).value as Record<string, unknown>;
  return {
    time: record.time,
    level: record.level,
    channel: record.channel,
    message: secrets.scrub(found.scrub(redactText(String(record.message)))),
    context,
  };
}

/** The message of a record as the terminal prints it: the same policy as the stored one, without the request's other values. */
export function redactLogMessage(record: Pick<LoggedRecord, 'message' | 'context'>): string {
  const found = new SecretValues();
  secretContextValues(record.context, { found, count: 0, ancestors: [] }, 0);
  return found.scrub(redactText(String(record.message)));
}

interface ContextWalk {
  found: SecretValues;
  count: number;
  ancestors: object[];
}

/**
 * The values of the context's secret-looking keys, as redactData would hand them to addValue (same
 * walk: toJSON, depth and size limits, cycles), read without the copy redactData makes: the terminal
 * prints only the message, and a loaded server logs a record per 404.
 */
function secretContextValues(item: unknown, walk: ContextWalk, depth: number): void {
  if (item === null || typeof item !== 'object') return;
  if (depth >= MAX_DEPTH || ++walk.count > MAX_VALUES || walk.ancestors.includes(item)) return;
  const toJson = (item as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') {
    try {
      secretContextValues(toJson.call(item), walk, depth + 1);
    } catch {
      // as redactData: a toJSON() that fails leaves its value unread
    }
    return;
  }
  walk.ancestors.push(item);
  try {
    if (Array.isArray(item)) {
      for (const element of item) secretContextValues(element, walk, depth + 1);
      return;
    }
    for (const key of Object.keys(item)) {
      let element: unknown;
      try {
        element = (item as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      if (looksSecret(key) && element !== null && element !== undefined && element !== '')
        addValue(walk.found, element);
      else secretContextValues(element, walk, depth + 1);
    }
  } finally {
    walk.ancestors.pop();
  }
}

/** A context value replaced by name, as a placeholder may have copied it into the message (strings and numbers only). */
function addValue(found: SecretValues, value: unknown): void {
  if (typeof value === 'string' || typeof value === 'number') found.add(String(value));
}

/** A stored copy of the exception chain: messages through the text policy, headers as response headers are. */
export function redactException<Link extends ExceptionLink>(
  exception: { chain: Link[] },
  secrets: SecretValues,
): { chain: Link[] } {
  return {
    chain: exception.chain.map((record) => ({
      ...record,
      message: secrets.scrub(redactText(String(record.message))),
      headers: redactRecord('header', record.headers ?? {}, [], secrets) as Record<string, string>,
      // a hard-coded key beside a throw must not reach a team's store through the excerpt
      frames: (record.frames ?? []).map((frame) =>
        frame.excerpt
          ? {
              ...frame,
              excerpt: { ...frame.excerpt, lines: frame.excerpt.lines.map((line) => secrets.scrub(redactText(line))) },
            }
          : frame,
      ),
    })),
  };
}
