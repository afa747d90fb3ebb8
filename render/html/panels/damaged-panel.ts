import { damagedPanelSentence } from '../../damaged-panel-wording.js';
import { escapeHtml } from '../../escape.js';

/** A panel whose stored data could not be rendered: its title, and why, in place of its data. */
export function renderDamagedPanel(title: string, error: unknown): string {
  return `<h2>${escapeHtml(title)}</h2><div class="card"><p class="empty damaged">${escapeHtml(damagedPanelSentence(title, error))}</p></div>`;
}
