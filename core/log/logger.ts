import type { LogLevel, LogRecord } from './log-record.js';

export const LOG_LEVELS: readonly LogLevel[] = [
  'DEBUG',
  'INFO',
  'NOTICE',
  'WARNING',
  'ERROR',
  'CRITICAL',
  'ALERT',
  'EMERGENCY',
];

export function levelAtLeast(level: LogLevel, threshold: LogLevel): boolean {
  return levelRank(level) >= levelRank(threshold);
}

/**
 * A level's place in LOG_LEVELS, -1 for none. A switch, not a lookup in an object by name: every
 * record of a profiled request (a dozen or more) is ranked twice, and a keyed lookup costs more.
 */
function levelRank(level: string): number {
  switch (level) {
    case 'DEBUG':
      return 0;
    case 'INFO':
      return 1;
    case 'NOTICE':
      return 2;
    case 'WARNING':
      return 3;
    case 'ERROR':
      return 4;
    case 'CRITICAL':
      return 5;
    case 'ALERT':
      return 6;
    case 'EMERGENCY':
      return 7;
    default:
      return -1;
  }
}

export function isLogLevel(value: string): value is LogLevel {
  return levelRank(value) !== -1;
}

/** `origin`: what the record was logged for (a request's LogBuffer passes its owner), for a sink that needs it. */
export type LogSink = (record: LogRecord, origin?: unknown) => void;

/** Replaces `{key}` with the scalar context value of that key, as PSR-3 loggers do. */
export function interpolate(message: string, context: Record<string, unknown>): string {
  if (!message.includes('{')) return message;
  return message.replace(/\{([A-Za-z0-9_.]+)\}/g, (whole, key: string) => {
    const value = context[key];
    if (value === null || value === undefined) return whole;
    if (typeof value === 'object') return value instanceof Date ? value.toISOString() : whole;
    return String(value);
  });
}

/** A channel-bound logger writing to one sink (usually a request's LogBuffer). */
export class Logger {
  constructor(
    readonly channel: string,
    private readonly sink: LogSink,
  ) {}

  log(level: LogLevel, message: string, context: Record<string, unknown> = {}): void {
    this.sink({
      time: Date.now(),
      level,
      channel: this.channel,
      message: interpolate(String(message), context),
      context,
    });
  }

  withChannel(channel: string): Logger {
    return new Logger(channel, this.sink);
  }

  debug(message: string, context?: Record<string, unknown>): void {
    this.log('DEBUG', message, context);
  }
  info(message: string, context?: Record<string, unknown>): void {
    this.log('INFO', message, context);
  }
  notice(message: string, context?: Record<string, unknown>): void {
    this.log('NOTICE', message, context);
  }
  warning(message: string, context?: Record<string, unknown>): void {
    this.log('WARNING', message, context);
  }
  error(message: string, context?: Record<string, unknown>): void {
    this.log('ERROR', message, context);
  }
  critical(message: string, context?: Record<string, unknown>): void {
    this.log('CRITICAL', message, context);
  }
  alert(message: string, context?: Record<string, unknown>): void {
    this.log('ALERT', message, context);
  }
  emergency(message: string, context?: Record<string, unknown>): void {
    this.log('EMERGENCY', message, context);
  }
}
