import { renderSecurityPanel as renderHtml } from '../../render/html/panels/security-panel.js';
import { renderSecurityPanel as renderText } from '../../render/text/panels/security-panel.js';
import { definePanel } from '../panel-definition.js';

export const securityPanel = definePanel({
  name: 'security',
  title: 'Security',
  data: (profile) => profile.collectors.security,
  html: (profile) => renderHtml(profile),
  text: (profile, options) => renderText(profile, options),
});
