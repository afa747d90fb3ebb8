import type { Profile } from '../../../core/profiler/profile.js';
import { escapeHtml } from '../../../render/escape.js';
import { renderHtmlRows } from '../../../render/key-value-table.js';

const DECISIONS = { allowed: ['ok', 'Allowed'], denied: ['err', 'Denied'], none: ['', 'No rule applied'] } as const;

/** The firewall's decision, the rule that made it and its message. */
export function renderSecurityPanel(profile: Profile): string {
  const { decision, rule, message } = profile.collectors.security;
  const [tone, label] = DECISIONS[decision] ?? DECISIONS.none;
  return '<h2>Security</h2><div class="card">' + renderHtmlRows([
    ['Decision', `<span class="b ${tone}">${label}</span>`],
    ['Rule', rule === null ? '<span class="empty">none</span>' : `<code>${escapeHtml(rule)}</code>`],
    ['Message', message === null ? '<span class="empty">none</span>' : escapeHtml(message)],
  ]) + '</div>';
}
