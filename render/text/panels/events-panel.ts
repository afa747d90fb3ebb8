import type { Profile } from '../../../core/profiler/profile.js';
import { paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { formatMs } from '../format.js';
import { terminalSafe } from '../terminal-safe.js';
import type { TextOptions } from '../text-options.js';

/** Each dispatched event with the listeners it called, their durations, and who stopped propagation. */
export function renderEventsPanel(profile: Profile, options: TextOptions): string {
  const { color } = options;
  const events = profile.collectors.events.events;
  const head = renderHeading('Events', color);
  if (events.length === 0) return `${head}${paint('No event was dispatched.', 'dim', color)}\n`;
  const lines: string[] = [];
  for (const event of events) {
    lines.push(paint(terminalSafe(event.name), 'bold', color));
    if (event.listeners.length === 0) lines.push(paint('  (no listener called)', 'dim', color));
    const width = Math.max(0, ...event.listeners.map((l) => formatMs(l.duration, 2).length));
    for (const l of event.listeners) {
      const stopped = l.stoppedPropagation ? paint('  stopped propagation', 'yellow', color) : '';
      lines.push(`  ${formatMs(l.duration, 2).padStart(width)}  ${terminalSafe(l.listener)}${stopped}`);
    }
  }
  return head + lines.map((l) => `${l}\n`).join('');
}
