import type { LogLevel, LogRecord } from '../core/profiler/profile.js';
import { escapeHtml } from './escape.js';
import { formatClockMs, formatJson } from './format.js';

export type LogLevelGroup = 'error' | 'warning' | 'info' | 'debug';

const GROUPS: Record<LogLevel, LogLevelGroup> = {
  DEBUG: 'debug', INFO: 'info', NOTICE: 'info', WARNING: 'warning',
  ERROR: 'error', CRITICAL: 'error', ALERT: 'error', EMERGENCY: 'error',
};

/** How much of a context its folded one-line form shows. */
const CONTEXT_LINE = 160;

/** error (ERROR and worse), warning, info (INFO, NOTICE) or debug. */
export function logLevelGroup(level: LogLevel): LogLevelGroup {
  return GROUPS[level] ?? 'info';
}

function oneLine(context: Record<string, unknown>): string {
  let line: string;
  try {
    line = JSON.stringify(context, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? '';
  } catch {
    line = '[value that cannot be shown as JSON]';
  }
  return line.length > CONTEXT_LINE ? `${line.slice(0, CONTEXT_LINE - 1)}…` : line;
}

/** The context folded to one line; opened, the pretty JSON. */
function renderContext(context: unknown): string {
  if (!context || typeof context !== 'object' || Object.keys(context).length === 0) return '';
  return `<details class="ctx"><summary><code>${escapeHtml(oneLine(context as Record<string, unknown>))}</code></summary>`
    + `<pre class="ctx">${escapeHtml(formatJson(context))}</pre></details>`;
}

function renderRow(record: LogRecord): string {
  return `<tr class="log-${logLevelGroup(record.level)}"><td><span class="b">${escapeHtml(record.level)}</span><small>${formatClockMs(record.time)}</small></td>`
    + `<td>${escapeHtml(record.channel)}</td><td>${escapeHtml(record.message)}${renderContext(record.context)}</td></tr>`;
}

/**
 * The log as a table with the columns Level, Channel, Message: the level name
 * with the time (HH:MM:SS.mmm, UTC) under it, the message with its context folded
 * to one line (a <details> that opens on the pretty JSON). Rows carry `log-<group>`
 * classes, which the log panel's filter uses.
 */
export function renderLogTable(records: readonly LogRecord[]): string {
  if (records.length === 0) return '<p class="empty">No log messages.</p>';
  return `<table class="log"><thead><tr><th>Level</th><th>Channel</th><th>Message</th></tr></thead><tbody>${records.map(renderRow).join('')}</tbody></table>`;
}
