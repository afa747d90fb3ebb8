import type { CustomPanelData } from '../../../core/profiler/profile.js';
import { paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { renderTable } from '../table.js';
import { terminalSafe } from '../terminal-safe.js';

/** A panel the app defined: its rows under its columns. */
export function renderCustomPanel(panel: CustomPanelData, options: { color: boolean }): string {
  const head = renderHeading(terminalSafe(panel.title), options.color);
  if (panel.rows.length === 0) return `${head}${paint('Nothing was recorded.', 'dim', options.color)}\n`;
  const width = Math.max(panel.columns.length, ...panel.rows.map((row) => row.length));
  const columns = Array.from({ length: width }, (_, i) => ({ title: terminalSafe(panel.columns[i] ?? '') }));
  return (
    head +
    renderTable(
      columns,
      panel.rows.map((row) => columns.map((_, i) => terminalSafe(row[i] ?? ''))),
      options,
    )
  );
}
