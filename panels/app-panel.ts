import type { CustomPanelData } from '../core/profiler/profile.js';
import { renderCustomPanel as renderHtml } from '../render/html/panels/custom-panel.js';
import { renderCustomPanel as renderText } from '../render/text/panels/custom-panel.js';
import { countBadge, definePanel, type PanelDefinition } from './panel-definition.js';

/** A panel the app defined (`app.panel`), as its profile stored it: its title, and its rows as a table. */
export function appPanelDefinition(name: string, panel: CustomPanelData): PanelDefinition {
  return definePanel({
    name,
    title: panel.title,
    badges: () => countBadge(panel.rows.length),
    data: () => panel,
    html: () => renderHtml(panel),
    text: (_profile, options) => renderText(panel, options),
  });
}
