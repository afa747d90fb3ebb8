import { PANELS, type PanelName, type Profile } from '../../core/profiler/profile.js';
import { escapeHtml } from '../../render/escape.js';
import { formatMs } from '../../render/format.js';

export const PANEL_LABELS: Record<PanelName, string> = {
  request: 'Request / Response', time: 'Performance', exception: 'Exception', log: 'Logs',
  events: 'Events', router: 'Routing', security: 'Security',
};

function badges(profile: Profile, panel: PanelName): string {
  const { exception, log, events, time } = profile.collectors;
  switch (panel) {
    case 'exception': return exception?.chain.length ? `<span class="b err">${exception.chain.length}</span>` : '';
    case 'log': return (log.errors ? `<span class="b err">${log.errors}</span>` : '')
      + (log.warnings ? `<span class="b warn">${log.warnings}</span>` : '')
      + (log.errors || log.warnings ? '' : `<span class="b">${log.records.length}</span>`);
    case 'events': return `<span class="b">${events.events.length}</span>`;
    case 'time': return `<span class="b">${formatMs(time.duration)}</span>`;
    default: return '';
  }
}

/** `/_profiler/<token>?panel=<name>&type=request`, unescaped. */
export function panelUrl(token: string, panel: PanelName): string {
  return `/_profiler/${encodeURIComponent(token)}?panel=${panel}&type=request`;
}

/** The panels, each with its count (exceptions, log errors and warnings, events, total time). */
export function renderPanelMenu(profile: Profile, current: PanelName): string {
  const items = PANELS.map((panel) => {
    const on = panel === current ? ' class="on" aria-current="page"' : '';
    return `<li><a href="${escapeHtml(panelUrl(profile.token, panel))}"${on}><span>${PANEL_LABELS[panel]}</span><span>${badges(profile, panel)}</span></a></li>`;
  });
  return `<ul class="menu">${items.join('')}</ul>`;
}
