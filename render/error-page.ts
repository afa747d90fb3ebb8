import type { ErrorPageData } from '../core/kernel/error-renderer.js';
import { escapeHtml } from './escape.js';
import { renderRouteMiss } from './exception-routing.js';
import { renderExceptionView } from './exception-view.js';
import { statusClass } from './format.js';
import type { FrameOptions } from './frame-list.js';
import { renderLayout } from './layout.js';
import { PRODUCTION_STYLES } from './styles.js';
import { profileUrl } from '../core/profiler/profiler-urls.js';

/**
 * The debug error page (ARCHITECTURE.md, "Fixed by the specification"): title
 * `<message> (404 Not Found)`, the heading `Error 404 Not Found`, the request
 * method and URL, the outer message, then (for a routing 404/405) why no route
 * matched, and the exception view.
 */
export function renderErrorPage(data: ErrorPageData, options: FrameOptions = {}): string {
  const { status, statusText, exception } = data;
  const outer = exception.chain[0];
  const message = outer ? outer.message || outer.class : statusText;
  const classes = exception.chain.map((e) => escapeHtml(e.class)).join(' <span class="muted">&larr;</span> ');
  const profiler =
    data.token === null ? '' : ` &middot; <a href="${escapeHtml(profileUrl(data.token))}">View the profile</a>`;
  const hero =
    `<header class="hero ${statusClass(status)}"><div class="wrap">` +
    `<h1>Error ${status} ${escapeHtml(statusText)}</h1>` +
    `<div class="req"><strong>${escapeHtml(data.method)}</strong> ${escapeHtml(data.url)}</div>` +
    `<h2 class="msg">${escapeHtml(message)}</h2>` +
    `<div class="req">${classes}${profiler}</div></div></header>`;
  return renderLayout({
    title: `${message} (${status} ${statusText})`,
    body: `${hero}<main class="wrap">${data.routing ? renderRouteMiss(data.routing) : ''}${renderExceptionView(exception, data.log, options)}</main>`,
  });
}

/** The page outside debug mode: the status only, nothing internal. */
export function renderProductionErrorPage(status: number, statusText: string): string {
  const text = `${status} ${statusText}`;
  return renderLayout({
    title: `An Error Occurred: ${statusText}`,
    body:
      `<header class="hero ${statusClass(status)}"><div class="wrap"><h1 class="msg">Oops! An Error Occurred</h1>` +
      `<p>The server returned a "${escapeHtml(text)}".</p>` +
      '<p>Something is broken. Please let us know what you were doing when this error occurred. We will fix it as soon as possible. Sorry for any inconvenience caused.</p>' +
      '</div></header>',
    styles: PRODUCTION_STYLES,
  });
}
