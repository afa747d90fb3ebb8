import type { LogLevel, LogRecord } from './log-record.js';
import { redactLogMessage } from '../profiler/redact-log.js';
import { terminalSafe } from '../terminal-safe.js';
import { levelAtLeast, type LogSink } from './logger.js';

/** A sink that prints records at or above `threshold` as one line each (no line break: `write` ends the line). */
export function terminalSink(threshold: LogLevel, write: (line: string) => void): LogSink {
  const clock = wallClock();
  return (record: LogRecord) => {
    if (!levelAtLeast(record.level, threshold)) return;
    // A message can quote a URL (a 404's Referer): its secret query values stay off the terminal too.
    // Channel and message quote the app and the request: their control characters are shown, not obeyed.
    write(`${clock(record.time)} ${record.level.padEnd(8)} [${terminalSafe(record.channel)}] ${terminalSafe(redactLogMessage(record))}`);
  };
}

/** "HH:MM:SS" (UTC) of a time in ms, formatted once per second: under load every request logs. */
function wallClock(): (time: number) => string {
  let second = NaN;
  let text = '';
  return (time) => {
    const now = Math.floor(time / 1000);
    if (now !== second) {
      second = now;
      text = new Date(now * 1000).toISOString().slice(11, 19);
    }
    return text;
  };
}
