import { load } from 'cheerio';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile, SecurityData } from '../../core/profiler/profile.js';
import { renderProfileText } from '../../panels/profile-text.js';
import { renderSecurityPanel } from '../../render/html/panels/security-panel.js';
import { sampleProfile } from './text/sample-profile.js';

function withSecurity(security: SecurityData): Profile {
  const base = sampleProfile();
  return { ...base, collectors: { ...base.collectors, security } };
}

/** The terminal panel's lines under its heading, each as its words. */
function terminalWords(profile: Profile): string[] {
  const lines = renderProfileText(profile, 'security', { color: false }).split('\n');
  const at = lines.findIndex((l) => l === 'Security');
  return lines
    .slice(at + 2)
    .filter((l) => l.trim() !== '')
    .map((l) => l.replace(/\s+/g, ' ').trim());
}

/** The page panel's rows (label then value), or its one sentence, each as its words. */
function pageWords(profile: Profile): string[] {
  const $ = load(renderSecurityPanel(profile));
  const rows = $('table.kv tr')
    .toArray()
    .map((tr) => `${$(tr).find('th').text()} ${$(tr).find('td').text()}`.replace(/\s+/g, ' ').trim());
  return rows.length > 0 ? rows : [$('.card').text().replace(/\s+/g, ' ').trim()];
}

const CASES: [string, SecurityData][] = [
  ['no rule applied', { decision: 'none', rule: null, message: null }],
  ['allowed by a rule, no message', { decision: 'allowed', rule: '^/admin', message: null }],
  ['denied with a message', { decision: 'denied', rule: '^/admin', message: 'Sign in first.' }],
];

for (const [name, security] of CASES) {
  test(`security panel, ${name}: the terminal and the page say the same words`, () => {
    const profile = withSecurity(security);
    assert.equal(terminalWords(profile), pageWords(profile));
  });
}

test('the words themselves: a sentence when no rule applied, else Decision, Rule and Message with "none" for what is missing', () => {
  assert.equal(terminalWords(withSecurity(CASES[0]![1])), ['No access rule applied to the request.']);
  assert.equal(terminalWords(withSecurity(CASES[1]![1])), ['Decision Allowed', 'Rule ^/admin', 'Message none']);
});

test.run();
