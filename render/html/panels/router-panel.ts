import type { Profile, RouteDefinitionData, RouteExplanation } from '../../../core/profiler/profile.js';
import { escapeHtml, safeUrl } from '../../escape.js';
import { renderHtmlRows, renderKeyValueTable } from '../../key-value-table.js';

function renderExplain(explain: readonly RouteExplanation[]): string {
  if (explain.length === 0) return '<p class="empty">The app has no routes.</p>';
  const rows = explain.map(
    (r) =>
      `<tr><td class="mono">${escapeHtml(r.name)}</td><td class="mono">${escapeHtml(r.path)}</td>` +
      `<td>${r.methods.length ? escapeHtml(r.methods.join(', ')) : 'ANY'}</td>` +
      `<td><span class="b${r.verdict === 'match' ? ' ok' : ''}">${escapeHtml(r.verdict)}</span></td><td>${escapeHtml(r.detail)}</td></tr>`,
  );
  return `<table><thead><tr><th>Route</th><th>Path</th><th>Methods</th><th>Verdict</th><th>Detail</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The route as the app defined it; profiles recorded before definitions were kept say so. */
function renderDefinition(definition: RouteDefinitionData | null | undefined): string {
  if (!definition) return '<p class="empty">The route\'s definition was not recorded.</p>';
  return `<div class="route-definition">${renderHtmlRows([
    ['Path', `<code>${escapeHtml(definition.path)}</code>`],
    ['Methods', definition.methods.length ? escapeHtml(definition.methods.join(', ')) : 'ANY'],
    ['Requirements', renderKeyValueTable(definition.requirements, 'none')],
    ['Defaults', renderKeyValueTable(definition.defaults, 'none')],
    ['Controller', `<code>${escapeHtml(definition.controller)}</code>`],
  ])}</div>`;
}

/** The matched route, its definition and its parameters, the trailing-slash redirect, or why each route missed. */
export function renderRouterPanel(profile: Profile): string {
  const { route, params, redirect, explain } = profile.collectors.router;
  const parts: string[] = ['<h2>Routing</h2>'];
  if (route !== null) {
    parts.push(
      `<div class="card"><p>Matched route <code>${escapeHtml(route)}</code></p>${renderDefinition(profile.collectors.router.definition)}` +
        `<h3>Parameters</h3>${renderKeyValueTable(params, 'No route parameters.')}</div>`,
    );
  }
  if (redirect !== null) {
    const href = safeUrl(redirect);
    const target = href === null ? escapeHtml(redirect) : `<a href="${escapeHtml(href)}">${escapeHtml(redirect)}</a>`;
    parts.push(`<div class="card"><p>Redirected (trailing slash) to ${target}</p></div>`);
  }
  if (explain) {
    parts.push(
      `<div class="card"><p>No route matched <code>${escapeHtml(profile.method)} ${escapeHtml(profile.collectors.request.path)}</code>. Why each route missed:</p>${renderExplain(explain)}</div>`,
    );
  }
  if (parts.length === 1)
    parts.push('<div class="card"><p class="empty">No route was matched: the request ended before routing.</p></div>');
  return parts.join('');
}
