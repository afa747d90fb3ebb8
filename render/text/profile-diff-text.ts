import type { ProfileDiff, ProfileDiffRow } from '../../core/profiler/profile-diff.js';
import { paint } from './ansi.js';
import { wrapText } from './fit.js';
import { renderTable } from './table.js';
import { terminalSafe } from './terminal-safe.js';
import type { TextOptions } from './text-options.js';

/** `≠` marks a field that makes the profiles differ; `~` one that differs but is informational only (durations). */
function mark(row: ProfileDiffRow, color: boolean): string {
  if (!row.same) return paint('≠', 'red', color);
  return row.a === row.b ? '' : paint('~', 'dim', color);
}

const LEGEND = {
  differs: '≠ differs',
  informational: '~ differs, not counted (timings, events called, HTML page sizes)',
};

/**
 * Two profiles side by side, field | a | b (long values wrapped to fit), the legend of the
 * markers shown, then one line: they agree, or the fields they differ in.
 */
export function renderProfileDiffText(diff: ProfileDiff, options: TextOptions): string {
  const { color } = options;
  const rows = diff.rows.map((r) => {
    const style = r.same ? (r.a === r.b ? null : ('dim' as const)) : ('yellow' as const);
    const value = (v: string) => (style ? paint(terminalSafe(v), style, color) : terminalSafe(v));
    return [mark(r, color), terminalSafe(r.field), value(r.a), value(r.b)];
  });
  const table = renderTable(
    [
      { title: '', marker: true },
      { title: 'Field' },
      { title: terminalSafe(diff.a), overflow: 'wrap' },
      { title: terminalSafe(diff.b), overflow: 'wrap' },
    ],
    rows,
    options,
  );
  const shown = [
    ...(diff.rows.some((r) => !r.same) ? [LEGEND.differs] : []),
    ...(diff.rows.some((r) => r.same && r.a !== r.b) ? [LEGEND.informational] : []),
  ];
  const legend = shown.length ? `${paint(shown.join('   '), 'dim', color)}\n` : '';
  const differing = diff.rows.filter((r) => !r.same).map((r) => terminalSafe(r.field));
  const verdict =
    diff.same && differing.length === 0
      ? paint('The profiles agree.', 'green', color)
      : paint(
          differing.length ? `The profiles differ in: ${differing.join(', ')}` : 'The profiles differ.',
          'red',
          color,
        );
  const verdictLines = options.width === undefined ? [verdict] : wrapText(verdict, options.width);
  return `${table}${legend}\n${verdictLines.join('\n')}\n`;
}
