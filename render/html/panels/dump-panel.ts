import type { Profile } from '../../../core/profiler/profile.js';
import { dumpPlace, dumpText } from '../../dump-text.js';
import { asciiHtml, escapeHtml } from '../../escape.js';
import { formatMs } from '../../format.js';

/** Each dump() call of the request: where it was made, when, and the value as indented text. */
export function renderDumpPanel(profile: Profile): string {
  const dumps = profile.collectors.dump?.dumps ?? [];
  if (dumps.length === 0) return '<h2>Dumps</h2><div class="card"><p class="empty">Nothing was dumped.</p></div>';
  return (
    '<h2>Dumps</h2>' +
    dumps
      .map(
        (dump) =>
          `<div class="card"><p><code>${escapeHtml(dumpPlace(dump))}</code>` +
          `${dump.time == null ? '' : ` at ${formatMs(dump.time)}`}</p><pre>${asciiHtml(escapeHtml(dumpText(dump.value)))}</pre></div>`,
      )
      .join('')
  );
}
