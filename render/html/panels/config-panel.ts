import type { Profile } from '../../../core/profiler/profile.js';
import { escapeHtml } from '../../escape.js';
import { renderHtmlRows, renderKeyValueTable } from '../../key-value-table.js';

const none = '<span class="empty">none</span>';

/** Versions, the app file, the values `app serve` runs with (defaults marked), the store, and the app's environment (secrets redacted). */
export function renderConfigPanel(profile: Profile): string {
  const config = profile.collectors.config;
  if (!config)
    return '<h2>Configuration</h2><div class="card"><p class="empty">This profile holds no configuration (recorded before it was, or outside <code>app serve</code>).</p></div>';
  return (
    '<h2>Configuration</h2><div class="card">' +
    renderHtmlRows([
      ['Node', escapeHtml(config.node)],
      ['appkernel', escapeHtml(config.appkernel)],
      ['App', config.app ? `${escapeHtml(config.app.name)} ${escapeHtml(config.app.version)}` : none],
      [
        'App file',
        config.appFile === null
          ? '<span class="empty">the demo app</span>'
          : `<code>${escapeHtml(config.appFile)}</code>`,
      ],
      ['Store', config.store === null ? none : `<code>${escapeHtml(config.store)}</code>`],
    ]) +
    `</div><h3>Serve options in effect</h3><p class="empty">Values marked (default) were not given.</p><div class="card">${renderKeyValueTable(config.options)}</div>` +
    `<h3>Environment</h3><p class="empty">The app's own variables: those named in the project's .env files, NODE_ENV, and those starting with APP_, APPKERNEL_ or the app's package name.</p><div class="card">${renderKeyValueTable(config.env)}</div>`
  );
}
