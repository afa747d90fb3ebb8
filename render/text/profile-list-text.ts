import type { ProfileSummary } from '../../core/profiler/profile.js';
import { exactCount, matchCountText, type MatchCount } from '../../core/profiler/match-count.js';
import { paint, statusStyle } from './ansi.js';
import { formatDateTime, formatMs, formatShortTime } from './format.js';
import { futureNote } from '../format.js';
import { renderTable, type TextColumn } from './table.js';
import { terminalSafe } from './terminal-safe.js';
import type { TextOptions } from './text-options.js';

/** Every column, for `--wide`: the full URL and time, the client's IP and the instance. */
const WIDE: TextColumn[] = [
  { title: 'Status' },
  { title: 'IP' },
  { title: 'Method' },
  { title: 'URL', overflow: 'truncate' },
  { title: 'Time' },
  { title: 'Duration', align: 'right' },
  { title: 'Route', overflow: 'truncate' },
  { title: 'Token' },
];

/** The default: what tells requests apart first (path and query), then what happened, in a terminal's width. */
const NARROW: TextColumn[] = [
  { title: 'Status' },
  { title: 'Method' },
  { title: 'Path', overflow: 'truncate' },
  { title: 'Duration', align: 'right' },
  { title: 'Route', overflow: 'truncate' },
  { title: 'Time' },
  { title: 'Token' },
];

/**
 * The search results as a terminal table: the count first (`<n> of <total>` when more matched than
 * are shown, `<n> of 10,000+` when the store stopped counting; `total` defaults to the rows given),
 * then one row per profile. By default the path and query lead (the origin only when the rows come
 * from more than one, as host:port) and the time is short; `wide` shows every column as stored, as
 * the search page does.
 */
export function renderProfileListText(
  rows: readonly ProfileSummary[],
  options: TextOptions & { total?: number | MatchCount; wide?: boolean; now?: number },
): string {
  const given =
    typeof options.total === 'number' ? exactCount(options.total) : (options.total ?? exactCount(rows.length));
  const total = given.more ? given : exactCount(Math.max(given.n, rows.length));
  if (total.n === 0 && !total.more) return 'No results found\n';
  const count = `${rows.length === total.n && !total.more ? '' : `${rows.length} of `}${matchCountText(total)} result${total.n === 1 && !total.more ? '' : 's'} found\n`;
  if (rows.length === 0) return count;
  // Which server served each profile, once a shared store holds more than one server's.
  const instances = new Set(rows.map((r) => r.instance).filter((i) => i !== undefined));
  const byInstance = instances.size > 1;
  const instance = (r: ProfileSummary) => (byInstance ? [terminalSafe(r.instance ?? '')] : []);
  const token = (r: ProfileSummary) => paint(terminalSafe(r.token), 'cyan', options.color);
  const status = (r: ProfileSummary) => paint(String(r.status), statusStyle(r.status), options.color);
  const route = (r: ProfileSummary) => terminalSafe(r.route ?? '');
  if (options.wide) {
    const cells = rows.map((r) => [
      status(r),
      terminalSafe(r.ip),
      terminalSafe(r.method),
      terminalSafe(r.url),
      formatDateTime(r.time),
      formatMs(r.duration),
      route(r),
      token(r),
      ...instance(r),
    ]);
    return `${count}\n${renderTable(byInstance ? [...WIDE, { title: 'Instance', overflow: 'truncate' }] : WIDE, cells, options)}`;
  }
  const now = options.now ?? Date.now();
  const where = originLabel(rows, byInstance);
  const cells = rows.map((r) => [
    status(r),
    terminalSafe(r.method),
    terminalSafe(`${where(r.url)}${pathOf(r.url)}`),
    formatMs(r.duration),
    route(r),
    futureNote(r.time, now) ? `${formatShortTime(r.time, now)} ahead` : formatShortTime(r.time, now),
    token(r),
    ...instance(r),
  ]);
  return `${count}\n${renderTable(byInstance ? [...NARROW, { title: 'Instance', overflow: 'truncate' }] : NARROW, cells, options)}`;
}

/**
 * What the Path column puts before the path: nothing when the rows have one origin, or when the
 * Instance column already says which server answered; else the host:port, or ":port" alone when
 * every row has the same host (127.0.0.1 on several ports).
 */
function originLabel(rows: readonly ProfileSummary[], byInstance: boolean): (url: string) => string {
  const origins = new Set(rows.map((r) => originOf(r.url)));
  if (origins.size < 2 || byInstance) return () => '';
  const hosts = new Set(rows.map((r) => hostOf(r.url).replace(/:\d+$/, '')));
  return hosts.size === 1 ? (url) => hostOf(url).slice(hostOf(url).replace(/:\d+$/, '').length) : hostOf;
}

/** "scheme://authority" of a stored URL; '' for one without. */
function originOf(url: string): string {
  const start = url.indexOf('://');
  if (start === -1) return '';
  const end = url.indexOf('/', start + 3);
  return end === -1 ? url : url.slice(0, end);
}

function hostOf(url: string): string {
  const origin = originOf(url);
  return origin.slice(origin.indexOf('://') + 3);
}

/** The path and query of a stored URL, as sent. */
function pathOf(url: string): string {
  const origin = originOf(url);
  const rest = url.slice(origin.length);
  return rest === '' ? '/' : rest;
}
