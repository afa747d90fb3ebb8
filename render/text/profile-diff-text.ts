import type { ProfileDiff, ProfileDiffRow } from '../../core/profiler/profile-diff.js';
import { paint } from './ansi.js';
import { renderTable } from './table.js';
import { terminalSafe } from './terminal-safe.js';

/** `≠` marks a field that makes the profiles differ; `~` one that differs but is informational only (durations). */
function mark(row: ProfileDiffRow, color: boolean): string {
  if (!row.same) return paint('≠', 'red', color);
  return row.a === row.b ? '' : paint('~', 'dim', color);
}

/** Two profiles side by side, field | a | b, then one line: they agree, or the fields they differ in. */
export function renderProfileDiffText(diff: ProfileDiff, options: { color: boolean }): string {
  const { color } = options;
  const rows = diff.rows.map((r) => {
    const style = r.same ? (r.a === r.b ? null : 'dim' as const) : 'yellow' as const;
    const value = (v: string) => (style ? paint(terminalSafe(v), style, color) : terminalSafe(v));
    return [mark(r, color), terminalSafe(r.field), value(r.a), value(r.b)];
  });
  const table = renderTable([{ title: '' }, { title: 'Field' }, { title: terminalSafe(diff.a) }, { title: terminalSafe(diff.b) }], rows, options);
  const differing = diff.rows.filter((r) => !r.same).map((r) => terminalSafe(r.field));
  const verdict = diff.same && differing.length === 0
    ? paint('The profiles agree.', 'green', color)
    : paint(differing.length ? `The profiles differ in: ${differing.join(', ')}` : 'The profiles differ.', 'red', color);
  return `${table}\n${verdict}\n`;
}
