/** One record of a request's log, as the logger makes it and every view shows it. */
export type LogLevel = 'DEBUG' | 'INFO' | 'NOTICE' | 'WARNING' | 'ERROR' | 'CRITICAL' | 'ALERT' | 'EMERGENCY';

export interface LogRecord {
  /** epoch milliseconds */
  time: number;
  level: LogLevel;
  channel: string;
  message: string;
  context: Record<string, unknown>;
}
