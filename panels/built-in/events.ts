import { renderEventsPanel as renderHtml } from '../../render/html/panels/events-panel.js';
import { renderEventsPanel as renderText } from '../../render/text/panels/events-panel.js';
import { definePanel } from '../panel-definition.js';

export const eventsPanel = definePanel({
  name: 'events',
  title: 'Events',
  badges: (profile) => [{ text: String(profile.collectors.events.events.length) }],
  data: (profile) => profile.collectors.events,
  html: (profile) => renderHtml(profile),
  text: (profile, options) => renderText(profile, options),
});
