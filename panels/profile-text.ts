import type { Profile } from '../core/profiler/profile.js';
import { AppError } from '../core/errors.js';
import { renderProfileHeader } from '../render/text/profile-header-text.js';
import type { PanelTextOptions } from './panel-definition.js';
import { findPanel, profilePanels } from './registry.js';

/** One panel of a profile (by name or alias, the app's own too) as terminal text, under the profile's header. */
export function renderProfileText(profile: Profile, panel: string, options: PanelTextOptions): string {
  const definition = findPanel(profile, panel);
  if (!definition) {
    throw new AppError(
      'APP_ERR_PROFILER_PANEL_NOT_FOUND',
      `Profile "${profile.token}" has no panel "${panel}": choose one of ${profilePanels(profile)
        .map((p) => p.name)
        .join(', ')}.`,
    );
  }
  return `${renderProfileHeader(profile, options)}\n${definition.text(profile, options)}`;
}
