import { redactData } from './redact-data.js';
import { isSecretRouteParam, looksSecret, redactRecord, redactText } from './redact.js';
import type { ExceptionData, LogRecord } from './profile.js';
import { SecretValues } from './secret-values.js';

/**
 * A stored copy of a log record: its message and every string of its context through the text
 * policy, the values of secret-looking context keys replaced at any depth ("password", "nested.token"),
 * and in the message too (a "{key}" placeholder copied them there). The router's "route_parameters"
 * follow the route parameter rule (the profiler's own {token} is kept).
 */
export function redactLogRecord(record: LogRecord, secrets: SecretValues, route: string | null = null): LogRecord {
  const found = new SecretValues();
  const isSecretKey = (path: string, key: string) => (path === `route_parameters.${key}` ? isSecretRouteParam(route, key) : looksSecret(key));
  const context = redactData(record.context, (s) => secrets.scrub(redactText(s)), (_, value) => addValue(found, value), isSecretKey).value as Record<string, unknown>;
  return { time: record.time, level: record.level, channel: record.channel, message: secrets.scrub(found.scrub(redactText(String(record.message)))), context };
}

/** The message of a record as the terminal prints it: the same policy as the stored one, without the request's other values. */
export function redactLogMessage(record: LogRecord): string {
  const found = new SecretValues();
  redactData(record.context, (s) => s, (_, value) => addValue(found, value));
  return found.scrub(redactText(String(record.message)));
}

/** A context value replaced by name, as a placeholder may have copied it into the message (strings and numbers only). */
function addValue(found: SecretValues, value: unknown): void {
  if (typeof value === 'string' || typeof value === 'number') found.add(String(value));
}

/** A stored copy of the exception chain: messages through the text policy, headers as response headers are. */
export function redactException(exception: ExceptionData, secrets: SecretValues): ExceptionData {
  return {
    chain: exception.chain.map((record) => ({
      ...record,
      message: secrets.scrub(redactText(String(record.message))),
      headers: redactRecord('header', record.headers ?? {}, [], secrets) as Record<string, string>,
    })),
  };
}
