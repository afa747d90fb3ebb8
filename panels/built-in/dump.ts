import { renderDumpPanel as renderHtml } from '../../render/html/panels/dump-panel.js';
import { renderDumpPanel as renderText } from '../../render/text/panels/dump-panel.js';
import { countBadge, definePanel } from '../panel-definition.js';

export const dumpPanel = definePanel({
  name: 'dump',
  title: 'Dumps',
  badges: (profile) => countBadge(profile.collectors.dump?.dumps.length),
  data: (profile) => profile.collectors.dump,
  html: (profile, options) => renderHtml(profile, { editor: options.editor }),
  text: (profile, options) => renderText(profile, options),
});
