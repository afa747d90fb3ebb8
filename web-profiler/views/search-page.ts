import type { ProfileSummary, SearchQuery } from '../../core/profiler/profile.js';
import { exactCount, matchCountText, type MatchCount } from '../../core/profiler/match-count.js';
import { escapeHtml, escapeHtmlCut, queryString } from '../../render/escape.js';
import { formatDateTime, formatMs, futureNote, isoSeconds, statusClass } from '../../render/format.js';
import { renderLayout } from '../../render/layout.js';
import { urlHtml } from '../../render/url-html.js';
import { STYLES } from '../../render/styles.js';
import { renderSearchForm, SEARCH_FORM_STYLES } from './search-form.js';
import { renderTopBar } from './top-bar.js';
import { URL_SHOWN } from './profile-summary.js';
import { PROFILER_LIVE_SCRIPT_PATH, PROFILER_SEARCH_PATH, profileUrl } from '../../core/profiler/profiler-urls.js';

/** A link to the search for `value`; a URL longer than the profile header shows is cut there too, whole in its title. */
function filterLink(name: 'ip' | 'method' | 'url', value: string, limit: number): string {
  const href = `${PROFILER_SEARCH_PATH}${queryString({ [name]: value, limit })}`;
  const title = value.length > URL_SHOWN ? ` title="${escapeHtml(value)}"` : '';
  const text = name === 'url' ? urlHtml(value, URL_SHOWN) : escapeHtmlCut(value, URL_SHOWN);
  return `<a href="${escapeHtml(href)}"${title}>${text}</a>`;
}

function routeCell(route: string | null | undefined): string {
  if (route === undefined) return '<span class="empty">unknown</span>';
  return route === null ? '<span class="empty">none</span>' : `<span class="mono">${escapeHtml(route)}</span>`;
}

function renderRow(row: ProfileSummary, limit: number, now: number | undefined): string {
  const token = escapeHtml(row.token);
  const ahead = futureNote(row.time, now);
  return (
    `<tr><td><span class="b ${statusClass(row.status)}">${escapeHtml(String(row.status))}</span></td>` +
    `<td>${filterLink('ip', row.ip, limit)}</td><td>${filterLink('method', row.method, limit)}</td><td class="url">${filterLink('url', row.url, limit)}</td>` +
    `<td><time datetime="${isoSeconds(row.time)}Z">${formatDateTime(row.time)}</time>${ahead ? ` <span class="future-note">(${ahead})</span>` : ''}</td>` +
    `<td><a class="mono" href="${escapeHtml(profileUrl(row.token))}">${token}</a></td>` +
    `<td>${routeCell(row.route)}</td><td>${formatMs(row.duration)}</td></tr>`
  );
}

/** The search page's address for `query` with some fields changed, unescaped. */
export function searchUrl(query: SearchQuery, change: Partial<SearchQuery> = {}): string {
  const q = { ...query, ...change };
  const time = (ms: number | undefined) => (ms === undefined ? undefined : isoSeconds(ms));
  return `${PROFILER_SEARCH_PATH}${queryString({
    ip: q.ip,
    method: q.method,
    status: q.status,
    url: q.url,
    token: q.token,
    since: time(q.since),
    until: time(q.until),
    limit: q.limit,
    profiler: q.hideProfiler ? undefined : 1,
    offset: q.offset ? q.offset : undefined,
  })}`;
}

/**
 * `<n> results found` as the reference says it, `<n> of <total> results found` when more matched than
 * are shown (`<n> of 10,000+ results found` when the store stopped counting).
 */
export function resultCount(shown: number, count: MatchCount): string {
  if (count.n === 0 && !count.more) return 'No results found';
  return shown === count.n && !count.more
    ? `${shown} results found`
    : `${shown} of ${matchCountText(count)} results found`;
}

function renderPager(query: SearchQuery, shown: number, count: MatchCount): string {
  const offset = query.offset ?? 0;
  const total = count.more ? Infinity : count.n;
  if (offset === 0 && shown >= total) return '';
  const newer =
    offset > 0
      ? `<a rel="prev" href="${escapeHtml(searchUrl(query, { offset: Math.max(0, offset - query.limit) }))}">&larr; Newer</a>`
      : '<span class="muted">&larr; Newer</span>';
  const older =
    offset + shown < total
      ? `<a rel="next" href="${escapeHtml(searchUrl(query, { offset: offset + query.limit }))}">Older &rarr;</a>`
      : '<span class="muted">Older &rarr;</span>';
  const range = shown
    ? `${offset + 1}&ndash;${offset + shown} of ${matchCountText(count)}`
    : `none of ${matchCountText(count)} past ${offset}`;
  return `<nav class="pager" aria-label="Pages">${newer} <span>${range}</span> ${older}</nav>`;
}

function renderProfilerToggle(query: SearchQuery): string {
  return query.hideProfiler
    ? `<p class="muted profiler-toggle">The profiler's own requests are hidden. <a href="${escapeHtml(searchUrl(query, { hideProfiler: false, offset: 0 }))}">Show them</a></p>`
    : `<p class="muted profiler-toggle">The profiler's own requests are shown. <a href="${escapeHtml(searchUrl(query, { hideProfiler: true, offset: 0 }))}">Hide them</a></p>`;
}

/** The live updates' switch; the script (live-search-script.ts) makes it work, without it the page is as before. */
const LIVE_CONTROLS =
  '<p class="live"><button type="button" id="live-toggle" aria-pressed="false">Pause live updates</button> ' +
  '<span id="live-state" role="status">static</span></p>';

/**
 * The search results, in the order given (newest first): columns Status, IP,
 * Method, URL, Time (UTC), Token, then Route and Duration; IP, method and URL link to
 * the search filtered by that value. The count reads as the reference's does,
 * `<n> results found` whatever n, with the total when more matched (`total`, a number or a
 * count that may have stopped; default: the rows given); newer and older pages are links.
 */
export function renderSearchPage(
  results: readonly ProfileSummary[],
  query: SearchQuery,
  total: number | MatchCount = results.length,
  notes: readonly string[] = [],
  now?: number,
): string {
  const notice =
    notes.length === 0 ? '' : `<p class="card filter-notes" role="status">${notes.map(escapeHtml).join(' ')}</p>`;
  const count = typeof total === 'number' ? exactCount(total) : total;
  const pager = renderPager(query, results.length, count);
  const table = results.length
    ? '<div class="card"><table class="results"><thead><tr><th>Status</th><th>IP</th><th>Method</th><th>URL</th><th>Time</th><th>Token</th><th>Route</th><th>Duration</th></tr></thead>' +
      `<tbody>${results.map((row) => renderRow(row, query.limit, now)).join('')}</tbody></table></div>`
    : '';
  return renderLayout({
    title: 'Profile Search · Profiler',
    styles: STYLES + SEARCH_FORM_STYLES,
    body:
      `${renderTopBar()}<main class="wrap"><h1>Profile Search</h1>${notice}${renderSearchForm(query)}${LIVE_CONTROLS}` +
      `<h2>${resultCount(results.length, count)}</h2>${renderProfilerToggle(query)}${pager}${table}${pager}</main>` +
      `<script src="${PROFILER_LIVE_SCRIPT_PATH}" defer></script>`,
  });
}
