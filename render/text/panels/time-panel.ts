import type { Profile } from '../../../core/profiler/profile.js';
import { paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { formatMs } from '../format.js';
import { renderTable } from '../table.js';
import { terminalSafe } from '../terminal-safe.js';
import type { TextOptions } from '../text-options.js';

const BAR_WIDTH = 40;

/** A phase as a bar on a timeline `BAR_WIDTH` wide, offset by its start: at least one cell so that short phases show. */
export function timelineBar(start: number, duration: number, total: number): string {
  if (total <= 0) return '█';
  const offset = Math.min(BAR_WIDTH - 1, Math.max(0, Math.round((start / total) * BAR_WIDTH)));
  const length = Math.max(1, Math.min(BAR_WIDTH - offset, Math.round((duration / total) * BAR_WIDTH)));
  return ' '.repeat(offset) + '█'.repeat(length);
}

/** Total time, then each phase with its start, duration and a bar. */
export function renderTimePanel(profile: Profile, options: TextOptions): string {
  const { duration, phases } = profile.collectors.time;
  const total = Math.max(duration, ...phases.map((p) => p.start + p.duration));
  const head = `${renderHeading('Time', options.color)}Total  ${formatMs(duration)}\n`;
  if (phases.length === 0) return `${head}\n${paint('No phases were recorded.', 'dim', options.color)}\n`;
  const rows = phases.map((p) => [
    terminalSafe(p.name), formatMs(p.start, 2), formatMs(p.duration, 2),
    paint(timelineBar(p.start, p.duration, total), 'cyan', options.color),
  ]);
  const table = renderTable([{ title: 'Phase', overflow: 'wrap' }, { title: 'Start', align: 'right' }, { title: 'Duration', align: 'right' }, { title: 'Timeline' }], rows, options);
  return `${head}\n${table}`;
}
