import type { Profile } from '../../core/profiler/profile.js';
import { escapeHtml } from '../../render/escape.js';
import type { PanelBadge, PanelDefinition } from '../../panels/panel-definition.js';
import { panelUrl } from '../../core/profiler/profiler-urls.js';

function badgeHtml(badge: PanelBadge): string {
  return `<span class="b${badge.tone ? ` ${badge.tone}` : ''}">${escapeHtml(badge.text)}</span>`;
}

/** The profile's panels, each with its title and its counts (exceptions, log errors and warnings, events, total time). */
export function renderPanelMenu(profile: Profile, panels: readonly PanelDefinition[], current: string): string {
  const items = panels.map((panel) => {
    const on = panel.name === current ? ' class="on" aria-current="page"' : '';
    return (
      `<li><a href="${escapeHtml(panelUrl(profile.token, panel.name))}"${on}><span>${escapeHtml(panel.title)}</span>` +
      `<span>${panel.badges(profile).map(badgeHtml).join('')}</span></a></li>`
    );
  });
  return `<ul class="menu">${items.join('')}</ul>`;
}
