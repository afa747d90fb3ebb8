import type { HttpCallData, Profile } from '../../../core/profiler/profile.js';
import { escapeHtml } from '../../../render/escape.js';
import { formatBytes, formatMs, statusClass } from '../../../render/format.js';
import { renderKeyValueTable } from '../../../render/key-value-table.js';

function callStatus(call: HttpCallData): string {
  if (call.error !== null) return `<span class="b err">${call.timedOut ? 'timeout' : 'error'}</span>`;
  if (call.status === null) return '<span class="b">pending</span>';
  return `<span class="b ${statusClass(call.status)}">${escapeHtml(String(call.status))}</span>`;
}

function renderCall(call: HttpCallData, index: number): string {
  const size = (bytes: number | null) => (bytes === null ? '<span class="empty">unknown</span>' : escapeHtml(formatBytes(bytes)));
  return `<div class="card"><h3>#${index + 1} ${callStatus(call)} ${escapeHtml(call.method)} <code>${escapeHtml(call.url)}</code></h3>`
    + `<p>${escapeHtml(call.client)} &middot; started at ${formatMs(call.start)} &middot; ${call.duration === null ? 'still in flight' : `took ${formatMs(call.duration)}`}`
    + ` &middot; sent ${size(call.requestSize)} &middot; received ${size(call.responseSize)}</p>`
    + (call.error === null ? '' : `<p class="err">${escapeHtml(call.error)}</p>`)
    + `<h4>Request headers</h4>${renderKeyValueTable(call.requestHeaders)}`
    + `<h4>Response headers</h4>${renderKeyValueTable(call.responseHeaders)}</div>`;
}

/** The outgoing HTTP calls the request made: a summary table, then each call's headers. */
export function renderHttpClientPanel(profile: Profile): string {
  const data = profile.collectors.http_client;
  if (!data) return '<h2>HTTP Client</h2><div class="card"><p class="empty">This profile was recorded before outgoing HTTP calls were.</p></div>';
  if (data.calls.length === 0) return '<h2>HTTP Client</h2><div class="card"><p class="empty">No outgoing HTTP calls were made.</p></div>';
  const rows = data.calls.map((call, i) => `<tr><td>${i + 1}</td><td>${callStatus(call)}</td><td>${escapeHtml(call.method)}</td><td>${escapeHtml(call.url)}</td>`
    + `<td>${call.duration === null ? '&hellip;' : formatMs(call.duration)}</td></tr>`);
  return `<h2>HTTP Client</h2><div class="card"><p>${data.calls.length} call${data.calls.length === 1 ? '' : 's'}, ${formatMs(data.totalTime)} in all`
    + `${data.errors ? `, <span class="b err">${data.errors} failed</span>` : ''}</p>`
    + `<table><thead><tr><th>#</th><th>Status</th><th>Method</th><th>URL</th><th>Duration</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`
    + data.calls.map(renderCall).join('');
}
