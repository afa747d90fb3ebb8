import type { Profile } from '../../../core/profiler/profile.js';
import { renderHeading, renderKeyValues } from '../blocks.js';
import { renderExplainText } from '../explain-text.js';
import type { TextOptions } from '../text-options.js';

/** The matched route and its parameters, the redirect, or why each route missed. */
export function renderRouterPanel(profile: Profile, options: TextOptions): string {
  const router = profile.collectors.router;
  const head = renderHeading('Routing', options.color);
  if (router.route !== null) {
    const controller = profile.collectors.request.controller ?? '(none)';
    return (
      head +
      renderKeyValues(
        [
          ['Route', router.route],
          ['Controller', controller],
        ],
        options,
      ) +
      '\n' +
      renderHeading('Parameters', options.color) +
      renderKeyValues(Object.entries(router.params), options)
    );
  }
  if (router.redirect !== null) return head + renderKeyValues([['Redirect', router.redirect]], options);
  if (router.explain) return head + renderExplainText(router.explain, options);
  return `${head}No route was matched.\n`;
}
