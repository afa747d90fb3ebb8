import type { ProfileSummary } from '../../core/profiler/profile.js';
import { paint, statusStyle } from './ansi.js';
import { formatDateTime, formatMs } from './format.js';
import { terminalSafe } from './terminal-safe.js';

/** One profile on one line, as `app profiles tail` prints them: status, method, URL, duration, time, token. */
export function renderProfileLine(row: ProfileSummary, options: { color: boolean }): string {
  return [
    paint(String(row.status), statusStyle(row.status), options.color),
    terminalSafe(row.method),
    terminalSafe(row.url),
    formatMs(row.duration),
    formatDateTime(row.time),
    paint(terminalSafe(row.token), 'cyan', options.color),
  ].join('  ') + '\n';
}
