import type { Profile } from '../../../core/profiler/profile.js';
import { renderHeading, renderKeyValues } from '../blocks.js';
import type { TextOptions } from '../text-options.js';

/** The firewall's decision and the rule that made it. */
export function renderSecurityPanel(profile: Profile, options: TextOptions): string {
  const security = profile.collectors.security;
  const head = renderHeading('Security', options.color);
  if (security.decision === 'none') return `${head}No access rule applied to the request.\n`;
  return head + renderKeyValues([
    ['Decision', security.decision],
    ['Rule', security.rule ?? '(none)'],
    ['Message', security.message ?? '(none)'],
  ], options);
}
