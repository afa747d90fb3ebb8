import type { SearchQuery } from '../../core/profiler/profile.js';
import { escapeHtml } from '../../render/escape.js';
import { isoSeconds } from '../../render/format.js';

const LIMITS = [10, 50, 100];

function field(label: string, name: string, value: string | undefined, attributes = ''): string {
  return `<label>${label}<input name="${name}" value="${escapeHtml(value ?? '')}"${attributes}></label>`;
}

const timeValue = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : isoSeconds(ms));

/** GET /_profiler/search with the filters of `query` filled in; times are UTC. */
export function renderSearchForm(query: SearchQuery): string {
  const limits = LIMITS.map((n) => `<option value="${n}"${n === query.limit ? ' selected' : ''}>${n}</option>`).join('');
  return '<form class="search card" method="get" action="/_profiler/search">'
    + field('IP', 'ip', query.ip, ' placeholder="127.0.0.1"')
    + field('Method', 'method', query.method, ' placeholder="GET"')
    + field('Status', 'status', query.status, ' placeholder="404 or 4xx"')
    + field('URL', 'url', query.url, ' placeholder="part of the URL"')
    + field('Token', 'token', query.token)
    + field('From (UTC)', 'since', timeValue(query.since), ' type="datetime-local" step="1"')
    + field('Until (UTC)', 'until', timeValue(query.until), ' type="datetime-local" step="1"')
    + `<label>Results<select name="limit">${limits}</select></label>`
    + '<button type="submit">Search</button></form>';
}
