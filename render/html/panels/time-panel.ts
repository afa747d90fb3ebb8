import type { Profile } from '../../../core/profiler/profile.js';
import { asciiHtml, escapeHtml } from '../../escape.js';
import { formatBytes, formatMs } from '../../format.js';
import { timelineEnd, timelineRows } from '../../timeline.js';

const percent = (part: number, whole: number): string =>
  (whole > 0 && Number.isFinite(part) ? Math.min(100, Math.max(0, (part / whole) * 100)) : 0).toFixed(2);

const KIND_LABELS = { phase: 'phase', listener: 'listener', span: 'span', http: 'HTTP', query: 'SQL' } as const;
const KIND_COLORS = {
  phase: '#2563eb',
  listener: '#6b7280',
  span: '#15803d',
  http: '#b45309',
  query: '#7c3aed',
} as const;

/** Total duration, memory, and the waterfall: phases, listener calls, the app's spans, outgoing calls and queries on one axis. */
export function renderTimePanel(profile: Profile): string {
  const { duration, memory } = profile.collectors.time;
  const rows = timelineRows(profile);
  const end = timelineEnd(profile, rows);
  const body = rows.map((row) => {
    const width = row.duration == null ? 100 - Number(percent(row.start, end)) : Number(percent(row.duration, end));
    return (
      `<tr class="tl-${row.kind}"><td>${KIND_LABELS[row.kind]}</td><td>${asciiHtml(escapeHtml(row.label))}</td><td>${formatMs(row.start)}</td>` +
      `<td>${row.duration == null ? 'unfinished' : formatMs(row.duration)}</td>` +
      `<td><div class="track"><span class="bar" style="left:${percent(row.start, end)}%;width:${width.toFixed(2)}%;background:${KIND_COLORS[row.kind]}"></span></div></td></tr>`
    );
  });
  const table = rows.length
    ? `<table class="timeline"><thead><tr><th>Kind</th><th>Name</th><th>Start</th><th>Duration</th><th>Timeline</th></tr></thead><tbody>${body.join('')}</tbody></table>`
    : '<p class="empty">No phases were recorded.</p>';
  const memoryLine = memory
    ? `<p>Memory at the end: heap ${escapeHtml(formatBytes(memory.heapUsed))} used of ${escapeHtml(formatBytes(memory.heapTotal))}, RSS ${escapeHtml(formatBytes(memory.rss))}, external ${escapeHtml(formatBytes(memory.external))}</p>`
    : '';
  return `<h2>Performance</h2><div class="card"><p>Total time: <strong>${formatMs(duration)}</strong></p>${memoryLine}${table}</div>`;
}
