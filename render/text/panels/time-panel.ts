import type { Profile } from '../../../core/profiler/profile.js';
import { timelineEnd, timelineRows } from '../../timeline.js';
import { paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { visibleWidth } from '../fit.js';
import { formatMs } from '../format.js';
import { renderTable } from '../table.js';
import { terminalSafe } from '../terminal-safe.js';
import type { TextOptions } from '../text-options.js';

const MAX_BAR_WIDTH = 40;
const MIN_BAR_WIDTH = 10;
/** Names keep at least this many columns (or their widest, if narrower) before the timeline gives way. */
const MIN_NAME_WIDTH = 20;
const GAP = 2;

/** A bar on a timeline `width` cells wide, offset by its start: at least one cell so that short bars show. */
export function timelineBar(start: number, duration: number, total: number, width = MAX_BAR_WIDTH): string {
  if (total <= 0) return '█';
  const offset = Math.min(width - 1, Math.max(0, Math.round((start / total) * width)));
  const length = Math.max(1, Math.min(width - offset, Math.round((duration / total) * width)));
  return ' '.repeat(offset) + '█'.repeat(length);
}

/**
 * The timeline's width: 40 cells when the terminal has room, else what is left once the other
 * columns and a name column shared about evenly with the timeline are served, never under 10.
 */
export function timelineWidth(terminalWidth: number | undefined, fixedWidth: number, nameWidth: number): number {
  if (terminalWidth === undefined) return MAX_BAR_WIDTH;
  const room = terminalWidth - fixedWidth - GAP;
  const name = Math.min(nameWidth, Math.max(MIN_NAME_WIDTH, Math.floor(room / 2)));
  return Math.max(MIN_BAR_WIDTH, Math.min(MAX_BAR_WIDTH, room - name));
}

const MB = 1024 * 1024;

/** Total time, memory, then the waterfall: phases, listener calls, the app's spans and outgoing calls. */
export function renderTimePanel(profile: Profile, options: TextOptions): string {
  const { duration, memory } = profile.collectors.time;
  const rows = timelineRows(profile);
  const total = timelineEnd(profile, rows);
  const memoryLine = memory
    ? `Memory  heap ${(memory.heapUsed / MB).toFixed(1)} MB of ${(memory.heapTotal / MB).toFixed(1)} MB, RSS ${(memory.rss / MB).toFixed(1)} MB\n`
    : '';
  const head = `${renderHeading('Performance', options.color)}Total  ${formatMs(duration)}\n${memoryLine}`;
  if (rows.length === 0) return `${head}\n${paint('No phases were recorded.', 'dim', options.color)}\n`;
  const cells = rows.map((row) => [
    row.kind,
    terminalSafe(row.label),
    formatMs(row.start, 2),
    row.duration == null ? 'unfinished' : formatMs(row.duration, 2),
  ]);
  const widest = (i: number, title: string) =>
    Math.max(visibleWidth(title), ...cells.map((c) => visibleWidth(c[i] ?? '')));
  const fixed = widest(0, 'Kind') + widest(2, 'Start') + widest(3, 'Duration') + GAP * 3;
  const barWidth = timelineWidth(options.width, fixed, widest(1, 'Name'));
  const table = renderTable(
    [
      { title: 'Kind' },
      { title: 'Name', overflow: 'truncate' },
      { title: 'Start', align: 'right' },
      { title: 'Duration', align: 'right' },
      { title: 'Timeline' },
    ],
    rows.map((row, i) => [
      ...(cells[i] ?? []),
      paint(
        timelineBar(row.start, row.duration ?? total - row.start, total, barWidth),
        row.kind === 'phase' ? 'cyan' : 'dim',
        options.color,
      ),
    ]),
    options,
  );
  return `${head}\n${table}`;
}
