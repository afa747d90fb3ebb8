import type { Profile } from '../../../core/profiler/profile.js';
import { escapeHtml } from '../../escape.js';
import { renderHtmlRows } from '../../key-value-table.js';
import { SECURITY_WORDING } from '../../security-wording.js';

const TONES = { allowed: 'ok', denied: 'err' } as const;
const absent = `<span class="empty">${SECURITY_WORDING.absent}</span>`;

/** The firewall's decision, the rule that made it and its message, in the terminal's words. */
export function renderSecurityPanel(profile: Profile): string {
  const { decision, rule, message } = profile.collectors.security;
  if (decision !== 'allowed' && decision !== 'denied')
    return `<h2>Security</h2><div class="card"><p class="empty">${SECURITY_WORDING.noRule}</p></div>`;
  return (
    '<h2>Security</h2><div class="card">' +
    renderHtmlRows([
      ['Decision', `<span class="b ${TONES[decision]}">${SECURITY_WORDING.decisions[decision]}</span>`],
      ['Rule', rule === null ? absent : `<code>${escapeHtml(rule)}</code>`],
      ['Message', message === null ? absent : escapeHtml(message)],
    ]) +
    '</div>'
  );
}
