import type { Profile } from '../../../core/profiler/profile.js';
import { escapeHtml } from '../../escape.js';
import { formatMs, plural } from '../../format.js';

/** Each dispatched event with its listeners in call order, their durations, and who stopped propagation. */
export function renderEventsPanel(profile: Profile): string {
  const { events } = profile.collectors.events;
  if (events.length === 0)
    return '<h2>Events</h2><div class="card"><p class="empty">No event was dispatched.</p></div>';
  const sections = events.map((event) => {
    const total = event.listeners.reduce((sum, call) => sum + call.duration, 0);
    const rows = event.listeners.map(
      (call, i) =>
        `<tr><td>${i + 1}</td><td class="mono">${escapeHtml(call.listener)}` +
        `${call.stoppedPropagation ? ' <span class="b warn">stopped propagation</span>' : ''}</td><td>${formatMs(call.duration)}</td></tr>`,
    );
    const table = rows.length
      ? `<table><thead><tr><th>#</th><th>Listener</th><th>Duration</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '<p class="empty">No listener was called.</p>';
    return `<div class="card"><h3 class="mono">${escapeHtml(event.name)} <small class="muted">${plural(event.listeners.length, 'listener')}, ${formatMs(total)}</small></h3>${table}</div>`;
  });
  return `<h2>Events</h2>${sections.join('')}`;
}
