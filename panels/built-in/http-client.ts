import { renderHttpClientPanel as renderHtml } from '../../render/html/panels/http-client-panel.js';
import { renderHttpClientPanel as renderText } from '../../render/text/panels/http-client-panel.js';
import { countBadge, definePanel } from '../panel-definition.js';

export const httpClientPanel = definePanel({
  name: 'http_client',
  title: 'HTTP Client',
  badges: (profile) => countBadge(profile.collectors.http_client?.calls.length),
  data: (profile) => profile.collectors.http_client,
  html: (profile) => renderHtml(profile),
  text: (profile, options) => renderText(profile, options),
});
