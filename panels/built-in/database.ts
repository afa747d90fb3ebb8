import { renderDatabasePanel as renderHtml } from '../../render/html/panels/database-panel.js';
import { renderDatabasePanel as renderText } from '../../render/text/panels/database-panel.js';
import { definePanel, type PanelBadge } from '../panel-definition.js';
import type { Profile } from '../../core/profiler/profile.js';

function badges(profile: Profile): PanelBadge[] {
  const data = profile.collectors.db;
  if (!data?.queries?.length) return [];
  const count: PanelBadge = { text: String(data.queries.length), ...(data.errors ? { tone: 'err' as const } : {}) };
  return data.repeated?.length ? [count, { text: 'N+1', tone: 'warn' }] : [count];
}

export const databasePanel = definePanel({
  name: 'db',
  aliases: ['database'],
  title: 'Database',
  badges,
  data: (profile) => profile.collectors.db,
  html: (profile, options) => renderHtml(profile, { editor: options.editor }),
  text: (profile, options) => renderText(profile, options),
});
