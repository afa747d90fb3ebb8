import { renderRequestPanel as renderHtml } from '../../render/html/panels/request-panel.js';
import { renderRequestPanel as renderText } from '../../render/text/panels/request-panel.js';
import { definePanel } from '../panel-definition.js';

export const requestPanel = definePanel({
  name: 'request',
  title: 'Request / Response',
  data: (profile) => profile.collectors.request,
  html: (profile) => renderHtml(profile),
  text: (profile, options) => renderText(profile, options),
});
