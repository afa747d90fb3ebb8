import { escapeHtml } from './escape.js';
import { formatJson } from './format.js';

/** A value cell: strings as they are, anything else as JSON; escaped either way. */
export function renderValue(value: unknown): string {
  return escapeHtml(typeof value === 'string' ? value : formatJson(value));
}

/** A two-column table of names and values, or `empty` in words when there is none. */
export function renderKeyValueTable(entries: Record<string, unknown>, empty = 'None'): string {
  const rows = Object.entries(entries ?? {});
  if (rows.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  return `<table class="kv"><tbody>${rows.map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${renderValue(value)}</td></tr>`).join('')}</tbody></table>`;
}

/** Like renderKeyValueTable, for rows whose values are already HTML. */
export function renderHtmlRows(rows: readonly [label: string, html: string][]): string {
  return `<table class="kv"><tbody>${rows.map(([label, html]) => `<tr><th>${escapeHtml(label)}</th><td>${html}</td></tr>`).join('')}</tbody></table>`;
}
