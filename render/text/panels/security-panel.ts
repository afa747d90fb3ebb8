import type { Profile } from '../../../core/profiler/profile.js';
import { SECURITY_WORDING } from '../../security-wording.js';
import { renderHeading, renderKeyValues } from '../blocks.js';
import type { TextOptions } from '../text-options.js';

/** The firewall's decision and the rule that made it, in the page's words. */
export function renderSecurityPanel(profile: Profile, options: TextOptions): string {
  const { decision, rule, message } = profile.collectors.security;
  const head = renderHeading('Security', options.color);
  if (decision !== 'allowed' && decision !== 'denied') return `${head}${SECURITY_WORDING.noRule}\n`;
  return (
    head +
    renderKeyValues(
      [
        ['Decision', SECURITY_WORDING.decisions[decision]],
        ['Rule', rule ?? SECURITY_WORDING.absent],
        ['Message', message ?? SECURITY_WORDING.absent],
      ],
      options,
    )
  );
}
