import type { PanelName, Profile } from '../../core/profiler/profile.js';
import { paint, statusStyle } from './ansi.js';
import { renderFields } from './blocks.js';
import { formatDateTime, formatMs } from './format.js';
import { futureNote } from '../format.js';
import { renderEventsPanel } from './panels/events-panel.js';
import { renderExceptionPanel } from './panels/exception-panel.js';
import { type LogTextOptions, renderLogPanel } from './panels/log-panel.js';
import { renderRequestPanel } from './panels/request-panel.js';
import { renderRouterPanel } from './panels/router-panel.js';
import { renderSecurityPanel } from './panels/security-panel.js';
import { renderTimePanel } from './panels/time-panel.js';
import { renderConfigPanel } from './panels/config-panel.js';
import { renderCustomPanel } from './panels/custom-panel.js';
import { renderDumpPanel } from './panels/dump-panel.js';
import { renderHttpClientPanel } from './panels/http-client-panel.js';
import { terminalSafe } from './terminal-safe.js';

/** `allRecords`: the log and exception panels list the event channel's DEBUG records too. */
type Options = LogTextOptions;

const PANEL_RENDERERS: Record<PanelName, (profile: Profile, options: Options) => string> = {
  request: renderRequestPanel,
  time: renderTimePanel,
  exception: renderExceptionPanel,
  log: (profile, options) => renderLogPanel(profile.collectors.log, options),
  events: renderEventsPanel,
  router: renderRouterPanel,
  security: renderSecurityPanel,
  http_client: renderHttpClientPanel,
  dump: renderDumpPanel,
  config: renderConfigPanel,
};

/** Token, request line, status and time: what identifies the profile above any panel. */
export function renderProfileHeader(profile: Profile, options: Options): string {
  const statusText = profile.collectors.request.response.statusText;
  const status = paint(`${profile.status}${statusText ? ` ${terminalSafe(statusText)}` : ''}`, statusStyle(profile.status), options.color);
  return renderFields([
    ['Token', paint(terminalSafe(profile.token), 'cyan', options.color)],
    ['Request', terminalSafe(`${profile.method} ${profile.url}`)],
    ['Status', status],
    ['IP', terminalSafe(profile.ip)],
    ['Time', `${formatDateTime(profile.time)} (${formatMs(profile.duration)})${noteAhead(profile.time, options.now)}`],
  ], options);
}

function noteAhead(time: number, now: number | undefined): string {
  const note = futureNote(time, now);
  return note ? `, ${note}` : '';
}

/** One panel of a profile as terminal text, under a short header; `panel` may name one of the app's own (collectors.custom). */
export function renderProfileText(profile: Profile, panel: PanelName | string, options: Options): string {
  const custom = Object.hasOwn(PANEL_RENDERERS, panel) ? undefined : profile.collectors.custom?.[panel];
  const text = custom ? renderCustomPanel(custom, options) : PANEL_RENDERERS[panel as PanelName](profile, options);
  return `${renderProfileHeader(profile, options)}\n${text}`;
}
