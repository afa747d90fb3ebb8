import type { Profile } from '../../../core/profiler/profile.js';
import { escapeHtml } from '../../../render/escape.js';
import { formatMs } from '../../../render/format.js';

const percent = (part: number, whole: number): string =>
  (whole > 0 && Number.isFinite(part) ? Math.min(100, Math.max(0, (part / whole) * 100)) : 0).toFixed(2);

/** Total duration and the phases on a timeline (CSS bars, offsets in % of the total). */
export function renderTimePanel(profile: Profile): string {
  const { duration, phases } = profile.collectors.time;
  const end = Math.max(duration, ...phases.map((p) => p.start + p.duration));
  const rows = phases.map((phase) => `<tr><td>${escapeHtml(phase.name)}</td><td>${formatMs(phase.start)}</td><td>${formatMs(phase.duration)}</td>`
    + `<td><div class="track"><span class="bar" style="left:${percent(phase.start, end)}%;width:${percent(phase.duration, end)}%"></span></div></td></tr>`);
  const table = rows.length
    ? `<table><thead><tr><th>Phase</th><th>Start</th><th>Duration</th><th>Timeline</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
    : '<p class="empty">No phases were recorded.</p>';
  return `<h2>Performance</h2><div class="card"><p>Total time: <strong>${formatMs(duration)}</strong></p>${table}</div>`;
}
