import { escapeHtml } from '../../render/escape.js';
import { renderLayout } from '../../render/layout.js';
import { BUILT_IN_PANELS } from '../../panels/built-in-panels.js';
import { renderTopBar } from './top-bar.js';
import { panelUrl, PROFILER_HOME_URL, PROFILER_LATEST_PATH } from '../../core/profiler/profiler-urls.js';

export interface NotFoundView {
  /** the one-line reason, e.g. `Token "abc" not found.` */
  message: string;
  /** a profile that exists (an unknown panel was asked of it): its panels are listed */
  token: string | null;
}

/** A profiler page that is not there (unknown token, unknown panel, no profile yet), in the profiler's own layout. */
export function renderNotFoundPage(view: NotFoundView): string {
  const panels =
    view.token === null
      ? ''
      : `<p>The panels of <code>${escapeHtml(view.token)}</code>:</p><ul class="panels">${BUILT_IN_PANELS.map(
          (panel) =>
            `<li><a href="${escapeHtml(panelUrl(view.token!, panel.name))}">${escapeHtml(panel.title)}</a></li>`,
        ).join('')}</ul>`;
  return renderLayout({
    title: `${view.message} (404 Not Found) · Profiler`,
    body:
      `${renderTopBar()}<main class="wrap not-found"><h1>Not found</h1><div class="card">` +
      `<p class="msg">${escapeHtml(view.message)}</p>${panels}` +
      `<p><a href="${PROFILER_HOME_URL}">Search the profiles</a> or open the <a href="${PROFILER_LATEST_PATH}">latest one</a>.</p>` +
      '</div></main>',
  });
}
