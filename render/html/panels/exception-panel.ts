import type { Profile } from '../../../core/profiler/profile.js';
import type { EditorLinks } from '../../editor-link.js';
import { renderExceptionView } from '../../exception-view.js';
import { panelUrl } from '../../../core/profiler/profiler-urls.js';

/**
 * The same view as the debug error page, with the profiled request's own log (and its "open in
 * editor" links); the event records are a link to the log panel, which lists them.
 */
export function renderExceptionPanel(profile: Profile, options: { editor?: EditorLinks | null } = {}): string {
  const { exception, log } = profile.collectors;
  if (!exception || exception.chain.length === 0) {
    return '<h2>Exception</h2><div class="card"><p class="empty">No exception was thrown and caught during the request.</p></div>';
  }
  const href = panelUrl(profile.token, 'log');
  return renderExceptionView(exception, log.records, {
    editor: options.editor ?? null,
    logPanel: { href, eventsHref: `${href}&events=1` },
  });
}
