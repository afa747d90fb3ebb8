import type { LogLevel, LogRecord } from './log-record.js';
import { redactLogMessage } from '../redaction/index.js';
import { terminalSafe } from '../terminal-safe.js';
import { levelAtLeast, type LogSink } from './logger.js';

export interface TerminalSinkOptions {
  /**
   * Statuses whose uncaught-error record (channel `request`) the terminal weighs as INFO, not ERROR:
   * the request line already reports them. Outside debug, `app serve` passes 404 and 405, as
   * Symfony's production logging leaves them out: a scanner's misses do not flood the terminal.
   */
  quietStatuses?: readonly number[];
  /** the level those records are weighed as (default INFO) */
  quietLevel?: LogLevel;
  /**
   * The secret values of what a record was logged for (its request: `origin` of the LogSink), to be
   * scrubbed from its line as the store scrubs them: a route secret or an API key quoted by a message.
   */
  scrubFor?: (origin: unknown) => ((text: string) => string) | null;
}

/** A sink that prints records at or above `threshold` as one line each (no line break: `write` ends the line). */
export function terminalSink(
  threshold: LogLevel,
  write: (line: string) => void,
  options: TerminalSinkOptions = {},
): LogSink {
  const clock = wallClock();
  const quiet = options.quietStatuses ?? [];
  const quietLevel = options.quietLevel ?? 'INFO';
  const shownLevel =
    quiet.length === 0
      ? (record: LogRecord) => record.level
      : (record: LogRecord): LogLevel => {
          if (record.channel !== 'request') return record.level;
          const status = (record.context.exception as { status?: unknown } | undefined)?.status;
          return typeof status === 'number' && quiet.includes(status) ? quietLevel : record.level;
        };
  const scrubFor = options.scrubFor ?? (() => null);
  return (record: LogRecord, origin?: unknown) => {
    if (!levelAtLeast(shownLevel(record), threshold)) return;
    const scrub = origin === undefined ? null : scrubFor(origin);
    // Secret values go as the store's copy loses them (the same policy, core/redaction).
    const message = redactLogMessage(record);
    // A message can quote a URL (a 404's Referer): its secret query values stay off the terminal too.
    // Channel and message quote the app and the request: their control characters are shown, not obeyed.
    write(
      `${clock(record.time)} ${record.level.padEnd(8)} [${terminalSafe(record.channel)}] ${terminalSafe(scrub ? scrub(message) : message)}`,
    );
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
