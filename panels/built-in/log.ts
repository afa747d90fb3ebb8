import { logViewOf, renderLogPanel as renderHtml } from '../../render/html/panels/log-panel.js';
import { renderLogPanel as renderText } from '../../render/text/panels/log-panel.js';
import { definePanel, type PanelBadge } from '../panel-definition.js';

export const logPanel = definePanel({
  name: 'log',
  aliases: ['logger'],
  title: 'Logs',
  badges: (profile) => {
    const { errors, warnings, records } = profile.collectors.log;
    const badges: PanelBadge[] = [];
    if (errors) badges.push({ text: String(errors), tone: 'err' });
    if (warnings) badges.push({ text: String(warnings), tone: 'warn' });
    return badges.length ? badges : [{ text: String(records.length) }];
  },
  data: (profile) => profile.collectors.log,
  html: (profile, options) => renderHtml(profile, logViewOf(options.query ?? {})),
  text: (profile, options) => renderText(profile.collectors.log, options),
});
