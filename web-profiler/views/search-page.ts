import type { ProfileSummary, SearchQuery } from '../../core/profiler/profile.js';
import { escapeHtml, queryString } from '../../render/escape.js';
import { formatDateTime, formatMs, isoSeconds, statusClass } from '../../render/format.js';
import { renderLayout } from '../../render/layout.js';
import { renderSearchForm } from './search-form.js';
import { renderTopBar } from './top-bar.js';

function filterLink(name: 'ip' | 'method' | 'url', value: string, limit: number): string {
  const href = `/_profiler/search${queryString({ [name]: value, limit })}`;
  return `<a href="${escapeHtml(href)}">${escapeHtml(value)}</a>`;
}

function renderRow(row: ProfileSummary, limit: number): string {
  const token = escapeHtml(row.token);
  return `<tr><td><span class="b ${statusClass(row.status)}">${escapeHtml(String(row.status))}</span></td>`
    + `<td>${filterLink('ip', row.ip, limit)}</td><td>${filterLink('method', row.method, limit)}</td><td class="url">${filterLink('url', row.url, limit)}</td>`
    + `<td><time datetime="${isoSeconds(row.time)}Z">${formatDateTime(row.time)}</time></td>`
    + `<td><a class="mono" href="/_profiler/${escapeHtml(encodeURIComponent(row.token))}">${token}</a></td><td>${formatMs(row.duration)}</td></tr>`;
}

/** The live updates' switch; the script (live-search-script.ts) makes it work, without it the page is as before. */
const LIVE_CONTROLS = '<p class="live"><button type="button" id="live-toggle" aria-pressed="false">Pause live updates</button> '
  + '<span id="live-state" role="status">static</span></p>';

/**
 * The search results, in the order given (newest first): columns Status, IP,
 * Method, URL, Time (UTC), Token, then Duration; IP, method and URL link to
 * the search filtered by that value. The count reads as the reference's does,
 * `<n> results found` whatever n.
 */
export function renderSearchPage(results: readonly ProfileSummary[], query: SearchQuery): string {
  const count = results.length ? `${results.length} results found` : 'No results found';
  const table = results.length
    ? '<div class="card"><table class="results"><thead><tr><th>Status</th><th>IP</th><th>Method</th><th>URL</th><th>Time</th><th>Token</th><th>Duration</th></tr></thead>'
      + `<tbody>${results.map((row) => renderRow(row, query.limit)).join('')}</tbody></table></div>`
    : '';
  return renderLayout({
    title: 'Profile Search · Profiler',
    body: `${renderTopBar()}<main class="wrap"><h1>Profile Search</h1>${renderSearchForm(query)}${LIVE_CONTROLS}<h2>${count}</h2>${table}</main>`
      + '<script src="/_profiler/live-search.js" defer></script>',
  });
}
