import { PANELS, type PanelName, type Profile } from '../../core/profiler/profile.js';
import { escapeHtml } from '../../render/escape.js';
import { formatMs } from '../../render/format.js';
import { panelUrl } from '../../render/html/panel-url.js';

export const PANEL_LABELS: Record<PanelName, string> = {
  request: 'Request / Response', time: 'Performance', exception: 'Exception', log: 'Logs',
  events: 'Events', router: 'Routing', security: 'Security', http_client: 'HTTP Client', dump: 'Dumps', config: 'Configuration',
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
    case 'http_client': return profile.collectors.http_client?.calls.length ? `<span class="b">${profile.collectors.http_client.calls.length}</span>` : '';
    case 'dump': return profile.collectors.dump?.dumps.length ? `<span class="b">${profile.collectors.dump.dumps.length}</span>` : '';
    default: return '';
  }
}


/** The panels, each with its count (exceptions, log errors and warnings, events, total time). */
export function renderPanelMenu(profile: Profile, current: string): string {
  const items = PANELS.map((panel) => {
    const on = panel === current ? ' class="on" aria-current="page"' : '';
    return `<li><a href="${escapeHtml(panelUrl(profile.token, panel))}"${on}><span>${PANEL_LABELS[panel]}</span><span>${badges(profile, panel)}</span></a></li>`;
  });
  for (const [name, panel] of Object.entries(profile.collectors.custom ?? {})) {
    const on = name === current ? ' class="on" aria-current="page"' : '';
    const count = panel.rows.length ? `<span class="b">${panel.rows.length}</span>` : '';
    items.push(`<li><a href="${escapeHtml(panelUrl(profile.token, name))}"${on}><span>${escapeHtml(panel.title)}</span><span>${count}</span></a></li>`);
  }
  return `<ul class="menu">${items.join('')}</ul>`;
}
