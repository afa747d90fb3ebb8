import type { BodyData, Profile } from '../../../core/profiler/profile.js';
import { escapeHtml } from '../../escape.js';
import { formatBytes, formatJson, statusClass } from '../../format.js';
import { renderHtmlRows, renderKeyValueTable } from '../../key-value-table.js';
import { urlHtml } from '../../url-html.js';
import { BODY_CAP, RESPONSE_BODY_CAP } from '../../../core/profiler/request-collector.js';

function orNone(value: string | null): string {
  return value === null || value === '' ? '<span class="empty">none</span>' : escapeHtml(value);
}

/** A whole JSON text, pretty-printed; anything else (a cut or broken text, a note) as it was stored. */
function prettyBody(body: BodyData): string {
  const type = (body.contentType ?? '').split(';')[0].trim().toLowerCase();
  const first = /\S/.exec(body.text)?.[0];
  if (body.truncated || !(type.endsWith('json') || first === '{' || first === '[')) return body.text;
  try {
    return formatJson(JSON.parse(body.text));
  } catch {
    return body.text;
  }
}

/**
 * `cap`: the bytes a profile keeps of the body. The stored text of bytes that are not UTF-8 holds a
 * three-byte U+FFFD for each bad byte, so its own length may say more than was kept. `foldBinary`:
 * such a body is folded behind a note (a response is previewed only when it is text already).
 */
export function renderBody(
  body: BodyData | null | undefined,
  cap: number,
  none = 'No body.',
  foldBinary = false,
): string {
  if (!body || body.size === 0) return `<p class="empty">${none}</p>`;
  const shown = Math.min(Buffer.byteLength(body.text), cap);
  const cut = body.truncated ? ` <span class="b warn">truncated: the first ${formatBytes(shown)} shown</span>` : '';
  const text = `<pre class="ctx body">${escapeHtml(prettyBody(body))}</pre>`;
  return (
    `<p>${formatBytes(body.size)}${body.contentType ? `, ${escapeHtml(body.contentType)}` : ''}${cut}</p>` +
    (foldBinary && looksBinary(body.text)
      ? `<details><summary>Binary: bytes that are not UTF-8 text. Show as text</summary>${text}</details>`
      : text)
  );
}

/** A NUL, or a byte that was not UTF-8 (stored as U+FFFD): shown as text, such a request body (an upload) is noise. */
function looksBinary(text: string): boolean {
  return text.includes('\u0000') || text.includes('\ufffd');
}

/** The response body's preview; profiles recorded before there was one, and bodies that are not text, say so. */
function renderResponseBody(body: BodyData | null | undefined): string {
  if (body === undefined) return '<p class="empty">Not recorded (this profile predates response body previews).</p>';
  return renderBody(body, RESPONSE_BODY_CAP, 'No text body to preview (empty, HTML, binary or streamed).');
}

/** Request and response: method, URL, route, controller, query, headers, cookies, both bodies (JSON pretty-printed), and what was redacted. */
export function renderRequestPanel(profile: Profile): string {
  const { request } = profile.collectors;
  const { response } = request;
  const redacted = request.redacted.length
    ? `Redacted before storage: ${request.redacted.map((r) => `<code>${escapeHtml(r)}</code>`).join(', ')}.`
    : 'Redacted: nothing.';
  return (
    '<h2>Request</h2><div class="card">' +
    renderHtmlRows([
      ['Method', escapeHtml(request.method)],
      ['URL', urlHtml(request.url)],
      ['Route', orNone(request.route)],
      ['Route parameters', renderKeyValueTable(request.routeParams, 'none')],
      ['Controller', orNone(request.controller)],
      ...(profile.instance === undefined ? [] : [['Served by', escapeHtml(profile.instance)] as [string, string]]),
    ]) +
    '</div>' +
    `<h3>Query</h3><div class="card">${renderKeyValueTable(request.query, 'No query parameters.')}</div>` +
    `<h3>Request headers</h3><div class="card">${renderKeyValueTable(request.headers, 'No headers.')}</div>` +
    `<h3>Cookies</h3><div class="card">${renderKeyValueTable(request.cookies, 'No cookies.')}</div>` +
    `<h3>Body</h3><div class="card">${renderBody(request.body, BODY_CAP, 'No body.', true)}</div>` +
    '<h2>Response</h2><div class="card">' +
    renderHtmlRows([
      [
        'Status',
        `<span class="b ${statusClass(response.status)}">${escapeHtml(String(response.status))}</span> ${escapeHtml(response.statusText)}`,
      ],
      ['Content type', orNone(response.contentType)],
      ['Size', response.size === null ? '<span class="empty">unknown</span>' : formatBytes(response.size)],
      ['Page title', orNone(response.title)],
    ]) +
    '</div>' +
    `<h3>Response headers</h3><div class="card">${renderKeyValueTable(response.headers, 'No headers.')}</div>` +
    `<h3>Response body</h3><div class="card">${renderResponseBody(response.body)}</div>` +
    `<p class="muted">${redacted}</p>`
  );
}
