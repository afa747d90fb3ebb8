import type { LogRecord } from '../../../core/profiler/profile.js';
import { levelStyle, paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { formatClock, plural } from '../format.js';
import { renderTable } from '../table.js';
import { terminalSafe } from '../terminal-safe.js';
import type { TextOptions } from '../text-options.js';

function message(record: LogRecord): string {
  const keys = Object.keys(record.context);
  if (keys.length === 0) return record.message;
  let context: string;
  try {
    context = JSON.stringify(record.context) ?? '';
  } catch {
    context = '(context not serialisable)';
  }
  return `${record.message} ${context}`;
}

/** The log table: Time (HH:MM:SS UTC), Level, Channel, Message with its context as JSON. */
export function renderLogTable(records: readonly LogRecord[], options: TextOptions): string {
  if (records.length === 0) return `${paint('No log records.', 'dim', options.color)}\n`;
  const rows = records.map((r) => {
    const style = levelStyle(r.level);
    return [
      formatClock(r.time),
      style ? paint(r.level, style, options.color) : r.level,
      terminalSafe(r.channel),
      terminalSafe(message(r)),
    ];
  });
  return renderTable([{ title: 'Time' }, { title: 'Level' }, { title: 'Channel' }, { title: 'Message', overflow: 'wrap' }], rows, options);
}

export function renderLogPanel(log: { records: LogRecord[]; errors: number; warnings: number }, options: TextOptions): string {
  const title = `Log (${plural(log.records.length, 'record')}, ${plural(log.errors, 'error')}, ${plural(log.warnings, 'warning')})`;
  return renderHeading(title, options.color) + renderLogTable(log.records, options);
}
