import { damagedPanelSentence } from '../../damaged-panel-wording.js';
import { renderHeading } from '../blocks.js';
import type { TextOptions } from '../text-options.js';
import { terminalSafe } from '../terminal-safe.js';

/** A panel whose stored data could not be rendered: its title, and why, in place of its data. */
export function renderDamagedPanel(title: string, error: unknown, options: TextOptions): string {
  return `${renderHeading(terminalSafe(title), options.color)}${terminalSafe(damagedPanelSentence(title, error))}\n`;
}
