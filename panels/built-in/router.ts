import { renderRouterPanel as renderHtml } from '../../render/html/panels/router-panel.js';
import { renderRouterPanel as renderText } from '../../render/text/panels/router-panel.js';
import { definePanel } from '../panel-definition.js';

export const routerPanel = definePanel({
  name: 'router',
  aliases: ['routing'],
  title: 'Routing',
  data: (profile) => profile.collectors.router,
  html: (profile) => renderHtml(profile),
  text: (profile, options) => renderText(profile, options),
});
