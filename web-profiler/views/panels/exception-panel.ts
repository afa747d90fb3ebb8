import type { Profile } from '../../../core/profiler/profile.js';
import { renderExceptionView } from '../../../render/exception-view.js';

/** The same view as the debug error page, with the profiled request's own log. */
export function renderExceptionPanel(profile: Profile): string {
  const { exception, log } = profile.collectors;
  if (!exception || exception.chain.length === 0) {
    return '<h2>Exception</h2><div class="card"><p class="empty">No exception was thrown and caught during the request.</p></div>';
  }
  return renderExceptionView(exception, log.records);
}
