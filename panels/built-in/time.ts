import { formatMs } from '../../render/format.js';
import { renderTimePanel as renderHtml } from '../../render/html/panels/time-panel.js';
import { renderTimePanel as renderText } from '../../render/text/panels/time-panel.js';
import { definePanel } from '../panel-definition.js';

export const timePanel = definePanel({
  name: 'time',
  aliases: ['performance'],
  title: 'Performance',
  badges: (profile) => [{ text: formatMs(profile.collectors.time.duration) }],
  data: (profile) => profile.collectors.time,
  html: (profile) => renderHtml(profile),
  text: (profile, options) => renderText(profile, options),
});
