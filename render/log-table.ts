import type { LogLevel, LogRecord } from '../core/profiler/profile.js';
import { escapeHtml } from './escape.js';
import { formatClockMs, formatJson } from './format.js';
import { BoundedCache } from '../core/bounded-cache.js';

export type LogLevelGroup = 'error' | 'warning' | 'info' | 'debug';

const GROUPS: Record<LogLevel, LogLevelGroup> = {
  DEBUG: 'debug',
  INFO: 'info',
  NOTICE: 'info',
  WARNING: 'warning',
  ERROR: 'error',
  CRITICAL: 'error',
  ALERT: 'error',
  EMERGENCY: 'error',
};

/** How much of a context its folded one-line form shows. */
const CONTEXT_LINE = 160;

/** error (ERROR and worse), warning, info (INFO, NOTICE) or debug. */
export function logLevelGroup(level: LogLevel): LogLevelGroup {
  return GROUPS[level] ?? 'info';
}

/** The context as compact JSON; null when it cannot be shown as JSON. */
function compactJson(context: Record<string, unknown>): string | null {
  try {
    return JSON.stringify(context, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? '';
  } catch {
    return null;
  }
}

/** The folded line's HTML; a cut one ends in `&hellip;` (pages stay ASCII: V8's and Node's fast paths). */
function oneLineHtml(json: string | null): string {
  const line = json ?? '[value that cannot be shown as JSON]';
  return line.length > CONTEXT_LINE ? `${escapeHtml(line.slice(0, CONTEXT_LINE - 1))}&hellip;` : escapeHtml(line);
}

/**
 * The HTML of contexts by their compact JSON, which says all their pretty JSON says: the error
 * listener's `Uncaught exception` context is made anew for every failed request, with the same JSON.
 */
const MAX_CONTEXTS = 256;
const contextHtml = new BoundedCache<string, string>(MAX_CONTEXTS);
const MAX_CONTEXT_JSON = 2048;

/** The context folded to one line; opened, the pretty JSON. */
function renderContext(context: unknown): string {
  if (!context || typeof context !== 'object' || Object.keys(context).length === 0) return '';
  const json = compactJson(context as Record<string, unknown>);
  let html = json === null ? undefined : contextHtml.get(json);
  if (html === undefined) {
    html =
      `<details class="ctx"><summary><code>${oneLineHtml(json)}</code></summary>` +
      `<pre class="ctx">${escapeHtml(formatJson(context))}</pre></details>`;
    if (json !== null && json.length <= MAX_CONTEXT_JSON) contextHtml.set(json, html);
  }
  return html;
}

/** The channel and message cells of a record whose context is frozen with plain values, by that context. */
const frozenCells = new WeakMap<object, { channel: string; message: string; html: string }>();

function isImmutable(context: object): boolean {
  if (!Object.isFrozen(context)) return false;
  for (const value of Object.values(context))
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) return false;
  return true;
}

function renderCells(record: LogRecord): string {
  const context: unknown = record.context;
  const keyed = context !== null && typeof context === 'object';
  const cached = keyed ? frozenCells.get(context) : undefined;
  if (cached !== undefined && cached.channel === record.channel && cached.message === record.message)
    return cached.html;
  const html = `<td>${escapeHtml(record.channel)}</td><td>${escapeHtml(record.message)}${renderContext(context)}</td>`;
  // A context made once and shared by many records (the dispatcher's "Notified event" ones) is rendered once:
  // frozen with plain values, it cannot change.
  if (keyed && isImmutable(context))
    frozenCells.set(context, { channel: record.channel, message: record.message, html });
  return html;
}

function renderRow(record: LogRecord): string {
  return (
    `<tr class="log-${logLevelGroup(record.level)}"><td><span class="b">${escapeHtml(record.level)}</span><small>${formatClockMs(record.time)}</small></td>` +
    `${renderCells(record)}</tr>`
  );
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
