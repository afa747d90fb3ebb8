import type { HttpCallData, Profile } from '../../../core/profiler/profile.js';
import { escapeHtml } from '../../escape.js';
import { formatBytes, formatMs, statusClass } from '../../format.js';
import { renderKeyValueTable } from '../../key-value-table.js';
import { RESPONSE_BODY_CAP } from '../../../core/profiler/request-collector.js';
import { renderBody } from './request-panel.js';
import { urlHtml } from '../../url-html.js';
import { profileUrl } from '../../../core/profiler/profiler-urls.js';

function callStatus(call: HttpCallData): string {
  if (call.error != null) return `<span class="b err">${call.timedOut ? 'timeout' : 'error'}</span>`;
  if (call.status == null) return '<span class="b">pending</span>';
  return `<span class="b ${statusClass(call.status)}">${escapeHtml(String(call.status))}</span>`;
}

/** How long the call took, or how far it got: answered with its body unread, or still in flight. */
function progress(call: HttpCallData): string {
  if (call.duration != null) return `took ${formatMs(call.duration)}`;
  if (call.bodyUnread === true)
    return `answered after ${formatMs(call.headersAfter ?? 0)} (headers) &middot; <span class="b">body not read</span>`;
  return 'still in flight';
}

function calleeLink(call: HttpCallData): string {
  const token = call.profile ?? null;
  if (token === null) return '';
  const href = escapeHtml(profileUrl(token));
  return ` &middot; callee's profile <a href="${href}">${escapeHtml(token)}</a>`;
}

function renderCall(call: HttpCallData, index: number): string {
  const size = (bytes: number | null) =>
    bytes == null ? '<span class="empty">unknown</span>' : escapeHtml(formatBytes(bytes));
  return (
    `<div class="card"><h3>#${index + 1} ${callStatus(call)} ${escapeHtml(call.method)} <code>${urlHtml(call.url)}</code></h3>` +
    `<p>${escapeHtml(call.client)} &middot; started at ${formatMs(call.start)} &middot; ${progress(call)}${calleeLink(call)}` +
    ` &middot; sent ${size(call.requestSize)} &middot; received ${size(call.responseSize)}</p>` +
    (call.error == null ? '' : `<p class="err">${escapeHtml(call.error)}</p>`) +
    `<h4>Request headers</h4>${renderKeyValueTable(call.requestHeaders)}` +
    `<h4>Response headers</h4>${renderKeyValueTable(call.responseHeaders)}` +
    (call.body ? `<h4>Response body</h4>${renderBody(call.body, RESPONSE_BODY_CAP)}` : '') +
    '</div>'
  );
}

/** The outgoing HTTP calls the request made: a summary table, then each call's headers. */
export function renderHttpClientPanel(profile: Profile): string {
  const data = profile.collectors.http_client;
  if (!data)
    return '<h2>HTTP Client</h2><div class="card"><p class="empty">This profile was recorded before outgoing HTTP calls were.</p></div>';
  if (data.calls.length === 0)
    return '<h2>HTTP Client</h2><div class="card"><p class="empty">No outgoing HTTP calls were made.</p></div>';
  const rows = data.calls.map(
    (call, i) =>
      `<tr><td>${i + 1}</td><td>${callStatus(call)}</td><td>${escapeHtml(call.method)}</td><td>${urlHtml(call.url)}</td>` +
      `<td>${call.duration != null ? formatMs(call.duration) : call.bodyUnread === true ? `${formatMs(call.headersAfter ?? 0)}, body not read` : '&hellip;'}</td></tr>`,
  );
  return (
    `<h2>HTTP Client</h2><div class="card"><p>${data.calls.length} call${data.calls.length === 1 ? '' : 's'}, ${formatMs(data.totalTime)} in all` +
    `${data.errors ? `, <span class="b err">${data.errors} failed</span>` : ''}</p>` +
    `<table><thead><tr><th>#</th><th>Status</th><th>Method</th><th>URL</th><th>Duration</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>` +
    data.calls.map(renderCall).join('')
  );
}
