import { escapeHtml } from '../../render/escape.js';
import { formatMs, plural } from '../../render/format.js';
import type { LogLevel } from '../../core/log/log-record.js';
import { LOG_LEVELS } from '../../core/log/logger.js';
import { builtInPanel } from '../../panels/registry.js';
import type { ToolbarSummary } from '../toolbar-summary.js';
import { TOOLBAR_OBSERVER_SCRIPT } from './toolbar-observer-script.js';
import { TOOLBAR_SCRIPT } from './toolbar-script.js';
import { TOOLBAR_STYLES } from './toolbar-styles.js';
import { profileUrl } from '../../core/profiler/profiler-urls.js';

export type { ToolbarSummary } from '../toolbar-summary.js';

const ERROR_LEVELS: readonly LogLevel[] = ['ERROR', 'CRITICAL', 'ALERT', 'EMERGENCY'];
const SECURITY_PILLS = { allowed: 'ak-s2', denied: 'ak-err', none: '' } as const;

const pill = (text: string, tone = ''): string => `<span class="ak-pill${tone ? ` ${tone}` : ''}">${text}</span>`;
const row = (name: string, value: string): string => `<tr><th>${escapeHtml(name)}</th><td>${value}</td></tr>`;

/**
 * The section of the bar for the panel `name`: its summary, and details under the panel's title shown
 * above the bar on hover or on tap (the section takes focus), ending with a link to the panel.
 */
function section(name: string, summary: string, rows: string, href: string): string {
  const title = escapeHtml(builtInPanel(name)!.title);
  return (
    `<div class="ak-s ak-${name}" tabindex="0" data-panel="${name}">${summary}` +
    `<div class="ak-det"><b>${title}</b><table>${rows}</table><div class="ak-more"><a href="${href}?panel=${name}">${title} panel</a></div></div></div>`
  );
}

function statusTone(status: number): string {
  const family = Math.floor(status / 100);
  return family >= 2 && family <= 5 ? `ak-s${family}` : '';
}

/**
 * The log's section: like Symfony's, the bar counts what needs a look (errors in red, warnings and
 * deprecations in yellow), not the records; a page that logged only debug and info reads "Logs 0".
 * Every level's count is in the details.
 */
function logSection(s: ToolbarSummary, href: string): string {
  let errors = 0;
  let warnings = 0;
  const rows: string[] = [];
  for (const level of LOG_LEVELS) {
    const n = s.log[level] ?? 0;
    if (n === 0) continue;
    if (ERROR_LEVELS.includes(level)) errors += n;
    else if (level === 'WARNING') warnings += n;
    rows.push(row(level, String(n)));
  }
  const deprecations = s.deprecations ?? 0;
  if (deprecations) rows.push(row('Deprecations', String(deprecations)));
  const pills = [
    errors ? pill(plural(errors, 'error'), 'ak-err') : '',
    warnings ? pill(plural(warnings, 'warning'), 'ak-warn') : '',
    deprecations ? pill(plural(deprecations, 'deprecation'), 'ak-warn') : '',
  ].join('');
  const summary = `<span class="ak-label">Logs</span> ${pills || '<span class="ak-quiet">0</span>'}`;
  return section('log', summary, rows.join('') || row('records', 'none'), href);
}

/**
 * The debug toolbar for an HTML page: fixed at the bottom, one section per panel, details on hover
 * or tap, a hide toggle (a checkbox, so it works without script; the script remembers it), and an
 * initially hidden section where the script lists the page's later fetch/XHR calls. A spacer keeps
 * the bar from covering the end of the page.
 */
export function renderToolbar(s: ToolbarSummary): string {
  const href = escapeHtml(profileUrl(s.token));
  const route = s.route === null ? '<em>no route</em>' : `@${escapeHtml(s.route)}`;
  const request = section(
    'request',
    `${pill(escapeHtml(String(s.status)), statusTone(s.status))} ${escapeHtml(s.method)} <span class="ak-route">${route}</span>`,
    row('Status', escapeHtml(String(s.status))) +
      row('Method', escapeHtml(s.method)) +
      row('Route', route) +
      row('Controller', s.controller === null ? '<em>none</em>' : escapeHtml(s.controller)),
    href,
  );
  const time = section(
    'time',
    `<span class="ak-label">Time</span> ${formatMs(s.duration)}`,
    row('Until the response', formatMs(s.duration)) + row('Listener calls', String(s.listeners)),
    href,
  );
  const exception =
    s.exceptions.length === 0
      ? ''
      : section(
          'exception',
          pill(escapeHtml(s.exceptions[0]), 'ak-err'),
          s.exceptions.map((name, i) => row(i === 0 ? 'Thrown' : 'Caused by', escapeHtml(name))).join(''),
          href,
        );
  const security = section(
    'security',
    `<span class="ak-label">Security</span> ${pill(escapeHtml(s.security.decision), SECURITY_PILLS[s.security.decision] ?? '')}`,
    row('Decision', escapeHtml(s.security.decision)) +
      row('Rule', s.security.rule === null ? '<em>none</em>' : escapeHtml(s.security.rule)),
    href,
  );
  const outgoing = !s.outgoing
    ? ''
    : section(
        'http_client',
        `<span class="ak-label">HTTP</span> ${plural(s.outgoing.count, 'HTTP call')} &middot; ${formatMs(s.outgoing.total)}`,
        row('Calls', String(s.outgoing.count)) + row('Total time', formatMs(s.outgoing.total)),
        href,
      );
  const database = !s.database
    ? ''
    : section(
        'db',
        `<span class="ak-label">DB</span> ${plural(s.database.count, 'query', 'queries')} &middot; ${formatMs(s.database.total)}${s.database.repeated ? ` ${pill('N+1', 'ak-warn')}` : ''}`,
        row('Queries', String(s.database.count)) +
          row('Total time', formatMs(s.database.total)) +
          (s.database.repeated ? row('Warning', 'a statement ran many times from one place (N+1)') : ''),
        href,
      );
  const fetches =
    '<div class="ak-s ak-fetch" tabindex="0" data-panel="fetch" hidden><span class="ak-label">Fetch</span> <span class="ak-fetch-count">0</span>' +
    '<div class="ak-det"><b>Requests from this page</b><table><thead><tr><th>Status</th><th>Method</th><th>URL</th><th>Profile</th></tr></thead>' +
    '<tbody class="ak-fetch-list"></tbody></table></div></div>';
  return (
    '<div class="appkernel-toolbar-spacer" style="height:36px" aria-hidden="true"></div>' +
    '<div id="appkernel-toolbar" class="appkernel-toolbar" role="complementary" aria-label="appkernel debug toolbar" ' +
    'style="position:fixed;left:0;right:0;bottom:0;z-index:2147483647">' +
    `<style>${TOOLBAR_STYLES}</style>` +
    '<input type="checkbox" id="appkernel-toolbar-hidden" class="ak-min" aria-label="Hide the appkernel toolbar">' +
    '<div class="ak-bar">' +
    `<a class="ak-logo" href="${href}" title="Open the profile">appkernel</a>` +
    request +
    time +
    logSection(s, href) +
    exception +
    security +
    outgoing +
    database +
    fetches +
    `<a class="ak-token" href="${href}" title="Open the profile">${escapeHtml(s.token)}</a>` +
    '<label class="ak-hide" for="appkernel-toolbar-hidden" title="Hide the toolbar" aria-label="Hide the toolbar">&#x2715;</label>' +
    '</div>' +
    '<label class="ak-tab" for="appkernel-toolbar-hidden" title="Show the appkernel toolbar">appkernel</label>' +
    `<script>${TOOLBAR_SCRIPT}</script>` +
    '</div>'
  );
}

/** The observer's element: the id lets a check tell it from a script a page smuggled in. */
export const TOOLBAR_OBSERVER = `<script id="appkernel-toolbar-observer">${TOOLBAR_OBSERVER_SCRIPT}</script>`;

/**
 * The toolbar at the end of the body (injectToolbar) and its fetch/XHR observer first in the
 * page's `<head>`, before the page's own scripts; a page with no `<head>` before the toolbar's
 * place gets the observer just before the toolbar (calls from then on are listed).
 */
export function injectToolbarAndObserver(html: string, toolbar: string): string {
  const at = headContentStart(html);
  const withToolbar = injectToolbar(html, at === -1 ? TOOLBAR_OBSERVER + toolbar : toolbar);
  return at === -1 ? withToolbar : withToolbar.slice(0, at) + TOOLBAR_OBSERVER + withToolbar.slice(at);
}

/** Just after the first `<head>` or `<head attrs>` tag (any case, not `<header>`), when it comes before the toolbar's place; -1 otherwise. */
function headContentStart(html: string): number {
  const head = /<head(?:\s[^>]*)?>/i.exec(html);
  if (head === null) return -1;
  const end = head.index + head[0].length;
  const bodyEnd = lastBodyEnd(html);
  return bodyEnd !== -1 && end > bodyEnd ? -1 : end;
}

/** Puts the toolbar before the last `</body>` (any case), or at the end when the page has none. */
export function injectToolbar(html: string, toolbar: string): string {
  const at = lastBodyEnd(html);
  return at === -1 ? html + toolbar : html.slice(0, at) + toolbar + html.slice(at);
}

/**
 * Where the last `</body` starts, in any case. Read backwards from the page's last `</`, not in a
 * lower-cased copy of the page: that cost a copy of every HTML page, and its indices are off by one
 * for each character whose lower case is longer (`İ` becomes two), so the toolbar cut a tag in two.
 */
function lastBodyEnd(html: string): number {
  for (let at = html.lastIndexOf('</'); at !== -1; at = at === 0 ? -1 : html.lastIndexOf('</', at - 1)) {
    if (html.length - at >= 6 && html.slice(at + 2, at + 6).toLowerCase() === 'body') return at;
  }
  return -1;
}
