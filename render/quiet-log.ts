import type { LogRecord } from '../core/profiler/profile.js';
import { escapeHtml } from './escape.js';
import { plural } from './format.js';
import { foldLog } from './log-fold.js';
import { renderLogTable } from './log-table.js';

/** Where the folded event records open: a link to the profile's log panel showing them, or (null) in place. */
export type EventsFold = { href: string } | null;

/**
 * The log as the error page and the exception panel show it: the app's records and the
 * framework's warnings and errors in their order, the `event` channel's DEBUG records folded
 * behind their count (a closed <details>, or a link to the log panel that lists them).
 */
export function renderQuietLog(records: readonly LogRecord[], events: EventsFold = null): string {
  const { shown, folded } = foldLog(records);
  if (folded.length === 0) return renderLogTable(shown);
  const table = shown.length > 0 ? renderLogTable(shown) : '<p class="empty">No records but the event channel\'s.</p>';
  const count = plural(folded.length, 'event record');
  const fold =
    events !== null
      ? `<p class="muted events-folded"><a href="${escapeHtml(events.href)}">${count}</a> (one per listener call) in the Log panel</p>`
      : `<details class="events-folded"><summary>${count} (one per listener call)</summary>${renderLogTable(folded)}</details>`;
  return table + fold;
}
