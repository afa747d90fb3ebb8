import type { Profile } from '../../../core/profiler/profile.js';
import { paint } from '../ansi.js';
import { renderHeading, renderKeyValues } from '../blocks.js';

/** Versions, app file, serve options, store, environment (secrets redacted). */
export function renderConfigPanel(profile: Profile, options: { color: boolean }): string {
  const head = renderHeading('Configuration', options.color);
  const config = profile.collectors.config;
  if (!config)
    return `${head}${paint('This profile holds no configuration (recorded before it was, or outside app serve).', 'dim', options.color)}\n`;
  return (
    head +
    renderKeyValues(
      [
        ['Node', config.node],
        ['appkernel', config.appkernel],
        ['App', config.app ? `${config.app.name} ${config.app.version}` : '(none)'],
        ['App file', config.appFile ?? '(the demo app)'],
        ['Store', config.store ?? '(none)'],
      ],
      options,
    ) +
    `\n${renderHeading('Serve options in effect', options.color)}${renderKeyValues(Object.entries(config.options), options)}` +
    `\n${renderHeading('Environment', options.color)}${paint("The app's own variables: named in .env files, NODE_ENV, APP_, APPKERNEL_ or app-name prefixed.", 'dim', options.color)}\n${renderKeyValues(Object.entries(config.env), options)}`
  );
}
