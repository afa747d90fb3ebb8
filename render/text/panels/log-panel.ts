import type { LogRecord } from '../../../core/profiler/profile.js';
import { foldLog } from '../../log-fold.js';
import { levelStyle, paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { visibleWidth } from '../fit.js';
import { formatClock, plural } from '../format.js';
import { renderTable } from '../table.js';
import { terminalSafe } from '../terminal-safe.js';
import type { TextOptions } from '../text-options.js';

export interface LogTextOptions extends TextOptions {
  /** every record (`--all`); by default the `event` channel's DEBUG records are folded to a count */
  allRecords?: boolean;
}

const GAP = 2;
const CLOCK_WIDTH = 'HH:MM:SS'.length;

/** The context's JSON on one line, compact; with a space after each `,` and `:` (`spaced`), so that it wraps between values. */
function contextJson(context: Record<string, unknown>, spaced: boolean): string {
  try {
    if (!spaced) return JSON.stringify(context) ?? '';
    // Pretty JSON holds line breaks only between values (a string's own are escaped): join its lines with a space.
    return (JSON.stringify(context, null, 1) ?? '')
      .replace(/([{[])\n */g, '$1')
      .replace(/\n *([}\]])/g, '$1')
      .replace(/\n */g, ' ');
  } catch {
    return '(context not serialisable)';
  }
}

/**
 * The message with its context as JSON: on the same line when both fit in `room` columns (or
 * there is no limit), else the context on an indented line of its own, which the table wraps
 * between JSON values rather than inside a word.
 */
function messageCell(record: LogRecord, room: number | undefined): string {
  const message = terminalSafe(record.message);
  if (record.context == null || Object.keys(record.context).length === 0) return message;
  const oneLine = `${message} ${terminalSafe(contextJson(record.context, false))}`;
  if (room === undefined || visibleWidth(oneLine) <= room) return oneLine;
  return `${message}\n  ${terminalSafe(contextJson(record.context, true))}`;
}

/** The Message column's width at `width`: what the other columns (never narrowed) leave. */
function messageRoom(
  levels: readonly string[],
  channels: readonly string[],
  width: number | undefined,
): number | undefined {
  if (width === undefined) return undefined;
  const widest = (title: string, cells: readonly string[]) => Math.max(visibleWidth(title), ...cells.map(visibleWidth));
  return width - CLOCK_WIDTH - widest('Level', levels) - widest('Channel', channels) - 3 * GAP;
}

/** The log table: Time (HH:MM:SS UTC), Level, Channel, Message with its context as JSON. */
export function renderLogTable(records: readonly LogRecord[], options: TextOptions): string {
  if (records.length === 0) return `${paint('No log records.', 'dim', options.color)}\n`;
  const channels = records.map((r) => terminalSafe(r.channel));
  const room = messageRoom(
    records.map((r) => r.level),
    channels,
    options.width,
  );
  const rows = records.map((r, i) => {
    const style = levelStyle(r.level);
    return [
      formatClock(r.time),
      style ? paint(r.level, style, options.color) : r.level,
      channels[i] ?? '',
      messageCell(r, room),
    ];
  });
  return renderTable(
    [{ title: 'Time' }, { title: 'Level' }, { title: 'Channel' }, { title: 'Message', overflow: 'wrap' }],
    rows,
    options,
  );
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
  const table =
    shown.length > 0
      ? renderLogTable(shown, options)
      : `${paint("No log records but the event channel's.", 'dim', options.color)}\n`;
  return `${table}${paint(`${plural(folded.length, 'event record')} hidden (--all to show)`, 'dim', options.color)}\n`;
}

export function renderLogPanel(
  log: { records: LogRecord[]; errors: number; warnings: number },
  options: LogTextOptions,
): string {
  const title = `Logs (${plural(log.records.length, 'record')}, ${plural(log.errors, 'error')}, ${plural(log.warnings, 'warning')})`;
  return renderHeading(title, options.color) + renderQuietLogTable(log.records, options);
}
