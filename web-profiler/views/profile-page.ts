import type { PanelName, Profile } from '../../core/profiler/profile.js';
import type { EditorLinks } from '../../render/editor-link.js';
import { renderLayout } from '../../render/layout.js';
import { PANEL_LABELS, renderPanelMenu } from './panel-menu.js';
import { renderEventsPanel } from '../../render/html/panels/events-panel.js';
import { renderExceptionPanel } from '../../render/html/panels/exception-panel.js';
import { logViewOf, renderLogPanel } from '../../render/html/panels/log-panel.js';
import { renderRequestPanel } from '../../render/html/panels/request-panel.js';
import { renderRouterPanel } from '../../render/html/panels/router-panel.js';
import { renderSecurityPanel } from '../../render/html/panels/security-panel.js';
import { renderTimePanel } from '../../render/html/panels/time-panel.js';
import { renderConfigPanel } from '../../render/html/panels/config-panel.js';
import { renderCustomPanel } from '../../render/html/panels/custom-panel.js';
import { renderDumpPanel } from '../../render/html/panels/dump-panel.js';
import { renderHttpClientPanel } from '../../render/html/panels/http-client-panel.js';
import { renderProfileSummary } from './profile-summary.js';
import { renderTopBar } from './top-bar.js';

const PANEL_RENDERERS: Record<PanelName, (profile: Profile, options: ProfilePageOptions) => string> = {
  request: renderRequestPanel,
  time: renderTimePanel,
  exception: (profile, options) => renderExceptionPanel(profile, { editor: options.editor }),
  log: (profile, options) => renderLogPanel(profile, logViewOf(options.query ?? {})),
  events: renderEventsPanel,
  router: renderRouterPanel,
  security: renderSecurityPanel,
  http_client: renderHttpClientPanel,
  dump: renderDumpPanel,
  config: renderConfigPanel,
};

/** `panel`: one of the profiler's panels, or the name of one the app defined (in `profile.collectors.custom`). */
export interface ProfilePageOptions {
  panel: PanelName | string;
  /** the page's query parameters, which some panels read (the log panel's `channel` and `events`) */
  query?: Record<string, string | string[]>;
  /** "open in editor" links on the app's frames (`app serve --editor`); none when absent */
  editor?: EditorLinks | null;
  /** the reader's clock, to note a profile dated ahead of it; no note when absent */
  now?: number;
}

/** `/_profiler/<token>`: the summary, the panel menu and the chosen panel. */
export function renderProfilePage(profile: Profile, options: ProfilePageOptions): string {
  const panel = options.panel;
  const builtIn = Object.hasOwn(PANEL_RENDERERS, panel) ? panel as PanelName : null;
  const custom = builtIn === null ? profile.collectors.custom?.[panel] : undefined;
  const label = builtIn !== null ? PANEL_LABELS[builtIn] : custom?.title ?? panel;
  const html = builtIn !== null ? PANEL_RENDERERS[builtIn](profile, options) : custom ? renderCustomPanel(custom) : '';
  return renderLayout({
    title: `${label} · ${profile.method} ${profile.url} (${profile.status}) · Profiler`,
    body: renderTopBar() + renderProfileSummary(profile, options.now)
      + `<div class="wrap layout"><nav>${renderPanelMenu(profile, panel)}</nav><main>${html}</main></div>`,
  });
}
