import type { LogRecord } from './log-record.js';
import { levelAtLeast, type LogSink } from './logger.js';

/** The log of one request: kept whole for the profiler, and forwarded to an optional terminal sink. */
export class LogBuffer {
  readonly records: LogRecord[] = [];
  errors = 0;
  warnings = 0;

  /** `origin`: the owner (the request) handed to `forward` with each record */
  constructor(
    private readonly forward?: LogSink,
    private readonly origin?: unknown,
  ) {}

  readonly sink: LogSink = (record) => {
    this.records.push(record);
    if (levelAtLeast(record.level, 'ERROR')) this.errors++;
    else if (record.level === 'WARNING') this.warnings++;
    this.forward?.(record, this.origin);
  };
}
