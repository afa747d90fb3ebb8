import type { LogRecord, Profile } from '../../../core/profiler/profile.js';
import { escapeHtml } from '../../escape.js';
import { EVENT_CHANNEL } from '../../log-fold.js';
import { type LogLevelGroup, logLevelGroup, renderLogTable } from '../../log-table.js';
import { panelUrl } from '../../../core/profiler/profiler-urls.js';

const FILTERS: [id: 'all' | LogLevelGroup, label: string][] = [
  ['all', 'All'],
  ['error', 'Errors'],
  ['warning', 'Warnings'],
  ['info', 'Info'],
  ['debug', 'Debug'],
];

/** Which records the log panel shows: one channel, or all but `event` unless `events` is set. */
export interface LogView {
  channel: string | null;
  events: boolean;
}

export function logViewOf(query: Record<string, string | string[]>): LogView {
  const first = (name: string) => {
    const value = query[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const channel = first('channel');
  return { channel: channel ? channel : null, events: first('events') === '1' };
}

function logUrl(token: string, view: LogView): string {
  return `${panelUrl(token, 'log')}${view.channel !== null ? `&channel=${encodeURIComponent(view.channel)}` : ''}${view.events ? '&events=1' : ''}`;
}

function link(token: string, view: LogView, label: string, on: boolean): string {
  return `<a href="${escapeHtml(logUrl(token, view))}"${on ? ' class="on" aria-current="true"' : ''}>${label}</a>`;
}

/** All channels (event hidden or shown) and each channel alone, with their counts: links, the pages run no script. */
function renderChannelFilter(token: string, records: readonly LogRecord[], view: LogView): string {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(record.channel, (counts.get(record.channel) ?? 0) + 1);
  const events = counts.get(EVENT_CHANNEL) ?? 0;
  const links = [
    link(
      token,
      { channel: null, events: false },
      `All channels${events ? ` but ${EVENT_CHANNEL}` : ''} <span class="b">${records.length - events}</span>`,
      view.channel === null && !view.events,
    ),
  ];
  if (events)
    links.push(
      link(
        token,
        { channel: null, events: true },
        `All channels <span class="b">${records.length}</span>`,
        view.channel === null && view.events,
      ),
    );
  for (const [channel, count] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    links.push(
      link(
        token,
        { channel, events: false },
        `${escapeHtml(channel)} <span class="b">${count}</span>`,
        view.channel === channel,
      ),
    );
  }
  const note =
    view.channel === null && !view.events && events
      ? `<p class="muted events-hidden">${events} <code>${EVENT_CHANNEL}</code> record${events === 1 ? '' : 's'} (one per listener call) hidden. ` +
        `${link(token, { channel: null, events: true }, 'Show them', false)}</p>`
      : '';
  return `<nav class="channels" aria-label="Channels">Channel: ${links.join(' ')}</nav>${note}`;
}

/**
 * The log table with a channel filter made of links (the `event` channel hidden
 * by default) and a level filter made of radio buttons and labels: the
 * stylesheet hides the other rows (`#lf-error:checked ~ table …`), no script.
 */
export function renderLogPanel(profile: Profile, view: LogView = { channel: null, events: false }): string {
  const all = profile.collectors.log.records;
  const records = all.filter((record) =>
    view.channel !== null ? record.channel === view.channel : view.events || record.channel !== EVENT_CHANNEL,
  );
  const counts: Record<string, number> = { all: records.length, error: 0, warning: 0, info: 0, debug: 0 };
  for (const record of records) counts[logLevelGroup(record.level)]++;
  const inputs = FILTERS.map(
    ([id]) => `<input type="radio" name="lf" class="lf" id="lf-${id}"${id === 'all' ? ' checked' : ''}>`,
  ).join('');
  const labels = FILTERS.map(
    ([id, label]) =>
      `<label for="lf-${id}">${label} <span class="b${id === 'error' && counts.error ? ' err' : id === 'warning' && counts.warning ? ' warn' : ''}">${counts[id]}</span></label>`,
  ).join('');
  return `<h2>Logs</h2><div class="card">${all.length ? renderChannelFilter(profile.token, all, view) : ''}${inputs}<div class="filters">${labels}</div>${renderLogTable(records)}</div>`;
}
