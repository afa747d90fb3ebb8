import type { ProfileSummary } from '../../core/profiler/profile.js';
import { paint, statusStyle } from './ansi.js';
import { formatClock, formatMs } from './format.js';
import { terminalSafe } from './terminal-safe.js';

const METHOD_WIDTH = 7;
const DURATION_WIDTH = 10;
const ROUTE_WIDTH = 16;

/**
 * One profile on one line, as `app profiles tail` prints them, its columns aligned from line to
 * line: time (UTC), status, method, duration, token, route, then the path and query, whose length varies.
 */
export function renderProfileLine(row: ProfileSummary, options: { color: boolean }): string {
  const route = terminalSafe(row.route ?? '-');
  return (
    [
      formatClock(row.time),
      paint(String(row.status), statusStyle(row.status), options.color),
      terminalSafe(row.method).padEnd(METHOD_WIDTH),
      formatMs(row.duration).padStart(DURATION_WIDTH),
      paint(terminalSafe(row.token), 'cyan', options.color),
      (route.length > ROUTE_WIDTH ? `${route.slice(0, ROUTE_WIDTH - 1)}…` : route).padEnd(ROUTE_WIDTH),
      terminalSafe(pathOf(row.url)),
    ].join('  ') + '\n'
  );
}

function pathOf(url: string): string {
  const start = url.indexOf('://');
  if (start === -1) return url;
  const slash = url.indexOf('/', start + 3);
  return slash === -1 ? '/' : url.slice(slash);
}
