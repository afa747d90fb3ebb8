import type { Profile } from '../../core/profiler/profile.js';
import { escapeHtml, queryString, safeUrl } from '../../render/escape.js';
import { formatDateTime, formatMs, futureNote, isoSeconds, statusClass } from '../../render/format.js';
import { urlHtml } from '../../render/url-html.js';
import { PROFILER_SEARCH_PATH } from '../../core/profiler/profiler-urls.js';

/** Longer URLs are cut in the header (and in the search results); the request panel shows them whole. */
export const URL_SHOWN = 160;

/**
 * The profiled URL, a link only for GET and HEAD (opening another method's URL sends a GET the
 * route may answer with 405), and then a link back to the referer when it is known.
 */
function renderUrl(profile: Profile): string {
  const title = profile.url.length > URL_SHOWN ? ` title="${escapeHtml(profile.url)}"` : '';
  const href = safeUrl(profile.url);
  if (href !== null && (profile.method === 'GET' || profile.method === 'HEAD')) {
    return `<a href="${escapeHtml(href)}"${title}>${urlHtml(profile.url, URL_SHOWN)}</a>`;
  }
  const referer = safeUrl(profile.collectors.request.headers.referer ?? '');
  const back = referer === null ? '' : ` <a class="referer" href="${escapeHtml(referer)}">Return to referer URL</a>`;
  return `<span${title}>${urlHtml(profile.url, URL_SHOWN)}</span>${back}`;
}

/** The header of a profile: URL, method, status, IP, when it was profiled (noted when ahead of `now`), its token. */
export function renderProfileSummary(profile: Profile, now?: number): string {
  const ahead = futureNote(profile.time, now);
  const url = renderUrl(profile);
  const statusText = profile.collectors.request.response.statusText;
  const ipSearch = `${PROFILER_SEARCH_PATH}${queryString({ ip: profile.ip, limit: 10 })}`;
  const fields: [string, string][] = [
    ['Method', escapeHtml(profile.method)],
    ['Status', `${escapeHtml(String(profile.status))} ${escapeHtml(statusText)}`],
    ['IP', `<a href="${escapeHtml(ipSearch)}">${escapeHtml(profile.ip)}</a>`],
    [
      'Profiled on',
      `<time datetime="${isoSeconds(profile.time)}Z">${formatDateTime(profile.time)} UTC</time>` +
        (ahead ? ` <span class="future-note">(${ahead})</span>` : ''),
    ],
    ['Duration', formatMs(profile.duration)],
    ['Token', `<code>${escapeHtml(profile.token)}</code>`],
  ];
  return (
    `<header class="hero summary ${statusClass(profile.status)}"><div class="wrap"><h1 class="msg">${url}</h1>` +
    `<dl>${fields.map(([name, value]) => `<div><dt>${name}</dt><dd>${value}</dd></div>`).join('')}</dl></div></header>`
  );
}
