import type { Profile } from '../core/profiler/profile.js';
import type { PanelDefinition } from '../panels/panel-definition.js';
import { renderProfileText } from '../panels/profile-text.js';
import type { TextOptions } from '../render/text/text-options.js';

/** Text for a reader that is a model: no colour, no terminal escapes, tables at a width that keeps lines whole. */
export const MODEL_TEXT: TextOptions = { color: false, width: 120 };

/** One panel of a profile as text, as `app profiles show --panel` prints it with colour off. */
export function profilePanelText(profile: Profile, panel: PanelDefinition): string {
  return renderProfileText(profile, panel.name, MODEL_TEXT);
}

/** One panel's stored data (or the whole profile when `panel` is null) as indented JSON. */
export function profileJson(profile: Profile, panel: PanelDefinition | null): string {
  if (panel === null) return JSON.stringify({ ...profile, time: new Date(profile.time).toISOString() }, null, 1);
  return JSON.stringify(
    { token: profile.token, time: new Date(profile.time).toISOString(), panel: panel.name, data: panel.data(profile) },
    null,
    1,
  );
}
