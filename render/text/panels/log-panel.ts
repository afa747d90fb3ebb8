import type { LogRecord } from '../../../core/profiler/profile.js';
import { foldLog } from '../../log-fold.js';
import { levelStyle, paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { formatClock, plural } from '../format.js';
import { renderTable } from '../table.js';
import { terminalSafe } from '../terminal-safe.js';
import type { TextOptions } from '../text-options.js';

export interface LogTextOptions extends TextOptions {
  /** every record (`--all`); by default the `event` channel's DEBUG records are folded to a count */
  allRecords?: boolean;
}

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

/**
 * The records as the CLI shows them by default: the app's and the framework's warnings and errors
 * in a table, the `event` channel's DEBUG records (one per listener call) folded to a line saying
 * how to see them; every record with `allRecords`.
 */
export function renderQuietLogTable(records: readonly LogRecord[], options: LogTextOptions): string {
  if (options.allRecords) return renderLogTable(records, options);
  const { shown, folded } = foldLog(records);
  if (folded.length === 0) return renderLogTable(shown, options);
  const table = shown.length > 0 ? renderLogTable(shown, options) : `${paint('No log records but the event channel\'s.', 'dim', options.color)}\n`;
  return `${table}${paint(`${plural(folded.length, 'event record')} hidden (--all to show)`, 'dim', options.color)}\n`;
}

export function renderLogPanel(log: { records: LogRecord[]; errors: number; warnings: number }, options: LogTextOptions): string {
  const title = `Log (${plural(log.records.length, 'record')}, ${plural(log.errors, 'error')}, ${plural(log.warnings, 'warning')})`;
  return renderHeading(title, options.color) + renderQuietLogTable(log.records, options);
}
