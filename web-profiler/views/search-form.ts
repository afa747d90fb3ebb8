import type { SearchQuery } from '../../core/profiler/profile.js';
import { escapeHtml } from '../../render/escape.js';
import { isoSeconds } from '../../render/format.js';
import { PROFILER_SEARCH_PATH } from '../../core/profiler/profiler-urls.js';

const LIMITS = [10, 50, 100];

/** Hints read as hints: prefixed "e.g.", italic and pale, never as a value already typed (the page adds it to its stylesheet). */
export const SEARCH_FORM_STYLES =
  'form.search input::placeholder{color:#9ca3af;font-style:italic;opacity:1}.filter-notes{border-left:4px solid #d97706;color:#92400e}';

function field(label: string, name: string, value: string | undefined, attributes = ''): string {
  return `<label>${label}<input name="${name}" value="${escapeHtml(value ?? '')}"${attributes}></label>`;
}

const timeValue = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : isoSeconds(ms));

/** GET /_profiler/search with the filters of `query` filled in; times are UTC. */
export function renderSearchForm(query: SearchQuery): string {
  const limits = LIMITS.map((n) => `<option value="${n}"${n === query.limit ? ' selected' : ''}>${n}</option>`).join(
    '',
  );
  return (
    `<form class="search card" method="get" action="${PROFILER_SEARCH_PATH}">` +
    field('IP', 'ip', query.ip, ' placeholder="e.g. 127.0.0.1"') +
    field('Method', 'method', query.method, ' placeholder="e.g. POST"') +
    field('Status', 'status', query.status, ' placeholder="e.g. 404 or 4xx"') +
    field('URL', 'url', query.url, ' placeholder="e.g. /hello"') +
    field('Token', 'token', query.token, ' placeholder="e.g. a1b2 (prefix)"') +
    field('From (UTC)', 'since', timeValue(query.since), ' type="datetime-local" step="1"') +
    field('Until (UTC)', 'until', timeValue(query.until), ' type="datetime-local" step="1"') +
    `<label>Results<select name="limit">${limits}</select></label>` +
    `<label>Profiler's own requests<input type="checkbox" name="profiler" value="1"${query.hideProfiler ? '' : ' checked'}></label>` +
    '<button type="submit">Search</button></form>'
  );
}
