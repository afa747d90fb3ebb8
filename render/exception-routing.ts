import type { RouteMiss, RouteSuggestion } from '../core/routing/explain-miss.js';
import { escapeHtml, safeUrl } from './escape.js';

function renderSuggestion(suggestion: RouteSuggestion): string {
  const route = `<span class="muted">route</span> <code>${escapeHtml(suggestion.name)}</code>`;
  const href = suggestion.url === null ? null : safeUrl(suggestion.url);
  if (href === null) return `<li><code>GET ${escapeHtml(suggestion.path)}</code> ${route}</li>`;
  return `<li><a href="${escapeHtml(href)}">GET ${escapeHtml(suggestion.url!)}</a> ${route} <code class="muted">${escapeHtml(suggestion.path)}</code></li>`;
}

/**
 * Above the exceptions of a routing 404 or 405: the GET routes the request may have meant,
 * then the closest routes, each with the reason it missed (path, requirement and the value
 * that failed, method, trailing slash), as the Routing panel and `app routes match` say it.
 */
export function renderRouteMiss(miss: RouteMiss): string {
  let html = rendered.get(miss);
  if (html === undefined) {
    html = renderAnew(miss);
    // A frozen miss (explainMiss() shares the one it made for the same miss on the same table) cannot change.
    if (Object.isFrozen(miss) && Object.isFrozen(miss.closest) && Object.isFrozen(miss.suggestions))
      rendered.set(miss, html);
  }
  return html;
}

const rendered = new WeakMap<RouteMiss, string>();

function renderAnew(miss: RouteMiss): string {
  const suggestions =
    miss.suggestions.length === 0
      ? ''
      : `<div class="did-you-mean"><strong>Did you mean</strong><ul>${miss.suggestions.map(renderSuggestion).join('')}</ul></div>`;
  const rows = miss.closest
    .map(
      (r) =>
        `<tr class="miss-${escapeHtml(r.verdict)}"><td class="mono">${escapeHtml(r.name)}</td>` +
        `<td class="mono">${escapeHtml(r.path)}</td><td>${escapeHtml(r.methods.length ? r.methods.join(', ') : 'ANY')}</td>` +
        `<td>${escapeHtml(r.detail)}</td></tr>`,
    )
    .join('');
  const table =
    rows === ''
      ? '<p class="empty">The app has no routes.</p>'
      : `<table class="route-miss"><thead><tr><th>Route</th><th>Path</th><th>Methods</th><th>Why it missed</th></tr></thead><tbody>${rows}</tbody></table>`;
  return (
    `<section class="routing-miss"><h2>Why no route matched <code>${escapeHtml(miss.method)} ${escapeHtml(miss.path)}</code></h2>` +
    `<div class="card">${suggestions}<p class="muted">The closest routes, nearest first:</p>${table}</div></section>`
  );
}
