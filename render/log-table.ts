import type { LogLevel, LogRecord } from '../core/profiler/profile.js';
import { escapeHtml } from './escape.js';
import { formatClock, formatJson } from './format.js';

export type LogLevelGroup = 'error' | 'warning' | 'info' | 'debug';

const GROUPS: Record<LogLevel, LogLevelGroup> = {
  DEBUG: 'debug', INFO: 'info', NOTICE: 'info', WARNING: 'warning',
  ERROR: 'error', CRITICAL: 'error', ALERT: 'error', EMERGENCY: 'error',
};

/** error (ERROR and worse), warning, info (INFO, NOTICE) or debug. */
export function logLevelGroup(level: LogLevel): LogLevelGroup {
  return GROUPS[level] ?? 'info';
}

function renderRow(record: LogRecord): string {
  const context = record.context && typeof record.context === 'object' && Object.keys(record.context).length > 0
    ? `<pre class="ctx">${escapeHtml(formatJson(record.context))}</pre>`
    : '';
  return `<tr class="log-${logLevelGroup(record.level)}"><td><span class="b">${escapeHtml(record.level)}</span><small>${formatClock(record.time)}</small></td>`
    + `<td>${escapeHtml(record.channel)}</td><td>${escapeHtml(record.message)}${context}</td></tr>`;
}

/**
 * The log as a table with the columns Level, Channel, Message: the level name
 * with the time (HH:MM:SS, UTC) under it, the message with its context as
 * pretty JSON. Rows carry `log-<group>` classes, which the log panel's filter uses.
 */
export function renderLogTable(records: readonly LogRecord[]): string {
  if (records.length === 0) return '<p class="empty">No log messages.</p>';
  return `<table class="log"><thead><tr><th>Level</th><th>Channel</th><th>Message</th></tr></thead><tbody>${records.map(renderRow).join('')}</tbody></table>`;
}
