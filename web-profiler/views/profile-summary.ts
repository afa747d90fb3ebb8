import type { Profile } from '../../core/profiler/profile.js';
import { escapeHtml, queryString, safeUrl } from '../../render/escape.js';
import { formatDateTime, formatMs, isoSeconds, statusClass } from '../../render/format.js';

/** The header of a profile: URL, method, status, IP, when it was profiled, its token. */
export function renderProfileSummary(profile: Profile): string {
  const href = safeUrl(profile.url);
  const url = href === null ? escapeHtml(profile.url) : `<a href="${escapeHtml(href)}">${escapeHtml(profile.url)}</a>`;
  const statusText = profile.collectors.request.response.statusText;
  const ipSearch = `/_profiler/search${queryString({ ip: profile.ip, limit: 10 })}`;
  const fields: [string, string][] = [
    ['Method', escapeHtml(profile.method)],
    ['Status', `${escapeHtml(String(profile.status))} ${escapeHtml(statusText)}`],
    ['IP', `<a href="${escapeHtml(ipSearch)}">${escapeHtml(profile.ip)}</a>`],
    ['Profiled on', `<time datetime="${isoSeconds(profile.time)}Z">${formatDateTime(profile.time)} UTC</time>`],
    ['Duration', formatMs(profile.duration)],
    ['Token', `<code>${escapeHtml(profile.token)}</code>`],
  ];
  return `<header class="hero summary ${statusClass(profile.status)}"><div class="wrap"><h1 class="msg">${url}</h1>`
    + `<dl>${fields.map(([name, value]) => `<div><dt>${name}</dt><dd>${value}</dd></div>`).join('')}</dl></div></header>`;
}
