import type { CustomPanelData } from '../panel-data.js';
import { appValueIsSecret, REDACTED, redactText } from '../../redaction/index.js';
import { appEntries, appEntryNames } from './app-entries.js';
import type { CollectContext } from './collect-context.js';

/** Records of app.panel() panels travel under "panel:<name>": one { title, columns, rows } each request. */
export const CUSTOM_PREFIX = 'panel:';

/**
 * The app's own panels: their rows as text, cells redacted like any stored text, and a cell whose value
 * is secret under its column's name replaced (app-data-secrets.ts: a "Key" column's `item:1` stays).
 */
export function collectCustomPanels({ entries, secrets }: CollectContext): Record<string, CustomPanelData> | undefined {
  const names = appEntryNames(entries).filter((name) => name.startsWith(CUSTOM_PREFIX));
  if (names.length === 0) return undefined;
  const panels: Record<string, CustomPanelData> = Object.create(null);
  for (const key of names) {
    const panel = appEntries(entries, key)[0] as CustomPanelData | undefined;
    if (!panel) continue;
    const columns = (panel.columns ?? []).map(String);
    panels[key.slice(CUSTOM_PREFIX.length)] = {
      title: String(panel.title),
      columns,
      rows: (panel.rows ?? []).map((row) =>
        (Array.isArray(row) ? row : [row]).map((cell, i) =>
          appValueIsSecret(columns[i] ?? '', cell) ? REDACTED : secrets.scrub(redactText(String(cell))),
        ),
      ),
    };
  }
  return panels;
}
