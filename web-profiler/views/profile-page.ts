import type { Profile } from '../../core/profiler/profile.js';
import type { EditorLinks } from '../../render/editor-link.js';
import { renderLayout } from '../../render/layout.js';
import { findPanel, profilePanels } from '../../panels/registry.js';
import { renderPanelMenu } from './panel-menu.js';
import { renderProfileSummary } from './profile-summary.js';
import { renderTopBar } from './top-bar.js';

/** `panel`: the name or alias of one of the profile's panels, the profiler's own or one the app defined. */
export interface ProfilePageOptions {
  panel: string;
  /** the page's query parameters, which some panels read (the log panel's `channel` and `events`) */
  query?: Record<string, string | string[]>;
  /** "open in editor" links on the app's frames (`app serve --editor`); none when absent */
  editor?: EditorLinks | null;
  /** the reader's clock, to note a profile dated ahead of it; no note when absent */
  now?: number;
}

/** `/_profiler/<token>`: the summary, the panel menu and the chosen panel (an unknown one shows nothing but its name). */
export function renderProfilePage(profile: Profile, options: ProfilePageOptions): string {
  const panel = findPanel(profile, options.panel);
  const title = panel?.title ?? options.panel;
  const html = panel ? panel.html(profile, options) : '';
  return renderLayout({
    title: `${title} · ${profile.method} ${profile.url} (${profile.status}) · Profiler`,
    body:
      renderTopBar() +
      renderProfileSummary(profile, options.now) +
      `<div class="wrap layout"><nav>${renderPanelMenu(profile, profilePanels(profile), panel?.name ?? options.panel)}</nav><main>${html}</main></div>`,
  });
}
