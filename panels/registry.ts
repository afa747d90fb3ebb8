import type { Profile } from '../core/profiler/profile.js';
import { appPanelDefinition } from './app-panel.js';
import { BUILT_IN_PANELS } from './built-in-panels.js';
import type { PanelDefinition } from './panel-definition.js';

const BY_NAME = new Map(BUILT_IN_PANELS.map((panel) => [panel.name, panel]));
const BY_ALIAS = new Map(BUILT_IN_PANELS.flatMap((panel) => panel.aliases.map((alias) => [alias, panel] as const)));

/** The built-in panel of this name or alias. */
export function builtInPanel(asked: string): PanelDefinition | undefined {
  return BY_NAME.get(asked) ?? BY_ALIAS.get(asked);
}

/** Every panel of this profile: the built-in ones, then those the app defined, in the menu's order. */
export function profilePanels(profile: Profile): PanelDefinition[] {
  const custom = Object.entries(profile.collectors.custom ?? {}).filter(([name]) => !BY_NAME.has(name));
  return [...BUILT_IN_PANELS, ...custom.map(([name, panel]) => appPanelDefinition(name, panel))];
}

/** The panel of this profile asked for by name or alias; null when it has none of that name. */
export function findPanel(profile: Profile, asked: string): PanelDefinition | null {
  const builtIn = builtInPanel(asked);
  if (builtIn) return builtIn;
  const custom = profile.collectors.custom;
  return custom && Object.hasOwn(custom, asked) ? appPanelDefinition(asked, custom[asked]) : null;
}

/** The panel shown when none is asked for: the exception's when the request threw one, else the request's. */
export function defaultPanel(profile: Profile): PanelDefinition {
  return BY_NAME.get(profile.collectors.exception ? 'exception' : 'request')!;
}

/** The built-in panels' names, in the menu's order. */
export const BUILT_IN_PANEL_NAMES: readonly string[] = BUILT_IN_PANELS.map((panel) => panel.name);
