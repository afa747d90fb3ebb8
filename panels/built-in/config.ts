import { renderConfigPanel as renderHtml } from '../../render/html/panels/config-panel.js';
import { renderConfigPanel as renderText } from '../../render/text/panels/config-panel.js';
import { definePanel } from '../panel-definition.js';

export const configPanel = definePanel({
  name: 'config',
  title: 'Configuration',
  data: (profile) => profile.collectors.config,
  html: (profile) => renderHtml(profile),
  text: (profile, options) => renderText(profile, options),
});
