import type { Profile } from '../../../core/profiler/profile.js';
import { timelineEnd, timelineRows } from '../../timeline.js';
import { paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { formatMs } from '../format.js';
import { renderTable } from '../table.js';
import { terminalSafe } from '../terminal-safe.js';
import type { TextOptions } from '../text-options.js';

const BAR_WIDTH = 40;

/** A bar on a timeline `BAR_WIDTH` wide, offset by its start: at least one cell so that short bars show. */
export function timelineBar(start: number, duration: number, total: number): string {
  if (total <= 0) return '█';
  const offset = Math.min(BAR_WIDTH - 1, Math.max(0, Math.round((start / total) * BAR_WIDTH)));
  const length = Math.max(1, Math.min(BAR_WIDTH - offset, Math.round((duration / total) * BAR_WIDTH)));
  return ' '.repeat(offset) + '█'.repeat(length);
}

const MB = 1024 * 1024;

/** Total time, memory, then the waterfall: phases, listener calls, the app's spans and outgoing calls. */
export function renderTimePanel(profile: Profile, options: TextOptions): string {
  const { duration, memory } = profile.collectors.time;
  const rows = timelineRows(profile);
  const total = timelineEnd(profile, rows);
  const memoryLine = memory ? `Memory  heap ${(memory.heapUsed / MB).toFixed(1)} MB of ${(memory.heapTotal / MB).toFixed(1)} MB, RSS ${(memory.rss / MB).toFixed(1)} MB\n` : '';
  const head = `${renderHeading('Time', options.color)}Total  ${formatMs(duration)}\n${memoryLine}`;
  if (rows.length === 0) return `${head}\n${paint('No phases were recorded.', 'dim', options.color)}\n`;
  const table = renderTable([{ title: 'Kind' }, { title: 'Name', overflow: 'wrap' }, { title: 'Start', align: 'right' }, { title: 'Duration', align: 'right' }, { title: 'Timeline' }],
    rows.map((row) => [
      row.kind, terminalSafe(row.label), formatMs(row.start, 2), row.duration === null ? 'unfinished' : formatMs(row.duration, 2),
      paint(timelineBar(row.start, row.duration ?? total - row.start, total), row.kind === 'phase' ? 'cyan' : 'dim', options.color),
    ]), options);
  return `${head}\n${table}`;
}
