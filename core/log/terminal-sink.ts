import type { LogLevel, LogRecord } from '../profiler/profile.js';
import { redactQueryStrings } from '../profiler/redact.js';
import { levelAtLeast, type LogSink } from './logger.js';

/** A sink that prints records at or above `threshold` as one line each. */
export function terminalSink(threshold: LogLevel, write: (line: string) => void): LogSink {
  return (record: LogRecord) => {
    if (!levelAtLeast(record.level, threshold)) return;
    const time = new Date(record.time).toISOString().slice(11, 19);
    // A message can quote a URL (a 404's Referer): its secret query values stay off the terminal too.
    write(`${time} ${record.level.padEnd(8)} [${record.channel}] ${redactQueryStrings(record.message)}\n`);
  };
}
