import type { CustomPanelData } from '../../../core/profiler/profile.js';
import { escapeHtml } from '../../escape.js';

/** A panel the app defined: its title and its rows as a table, every cell escaped. */
export function renderCustomPanel(panel: CustomPanelData): string {
  const head = `<h2>${escapeHtml(panel.title)}</h2>`;
  if (panel.rows.length === 0) return `${head}<div class="card"><p class="empty">Nothing was recorded.</p></div>`;
  const th = panel.columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('');
  const rows = panel.rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('');
  return `${head}<div class="card"><table><thead><tr>${th}</tr></thead><tbody>${rows}</tbody></table></div>`;
}
