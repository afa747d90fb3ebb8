import type { ProfileSummary } from '../../core/profiler/profile.js';
import { paint, statusStyle } from './ansi.js';
import { formatDateTime, formatMs } from './format.js';
import { renderTable, type TextColumn } from './table.js';
import { terminalSafe } from './terminal-safe.js';
import type { TextOptions } from './text-options.js';

const COLUMNS: TextColumn[] = [
  { title: 'Status' }, { title: 'IP' }, { title: 'Method' }, { title: 'URL', overflow: 'truncate' },
  { title: 'Time' }, { title: 'Duration', align: 'right' }, { title: 'Token' },
];

/**
 * The search results as a terminal table: the count first (`<n> of <total>` when more matched than
 * are shown; `total` defaults to the rows given), then one row per profile, as on the search page.
 */
export function renderProfileListText(rows: readonly ProfileSummary[], options: TextOptions & { total?: number }): string {
  const total = Math.max(options.total ?? rows.length, rows.length);
  if (total === 0) return 'No results found\n';
  const count = `${rows.length === total ? '' : `${rows.length} of `}${total} result${total === 1 ? '' : 's'} found\n`;
  if (rows.length === 0) return count;
  // Which server served each profile, once a shared store holds more than one server's.
  const instances = new Set(rows.map((r) => r.instance).filter((i) => i !== undefined));
  const byInstance = instances.size > 1;
  const cells = rows.map((r) => [
    paint(String(r.status), statusStyle(r.status), options.color),
    terminalSafe(r.ip),
    terminalSafe(r.method),
    terminalSafe(r.url),
    formatDateTime(r.time),
    formatMs(r.duration),
    paint(terminalSafe(r.token), 'cyan', options.color),
    ...(byInstance ? [terminalSafe(r.instance ?? '')] : []),
  ]);
  return `${count}\n${renderTable(byInstance ? [...COLUMNS, { title: 'Instance' }] : COLUMNS, cells, options)}`;
}
