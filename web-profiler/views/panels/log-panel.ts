import type { Profile } from '../../../core/profiler/profile.js';
import { type LogLevelGroup, logLevelGroup, renderLogTable } from '../../../render/log-table.js';

const FILTERS: [id: 'all' | LogLevelGroup, label: string][] = [
  ['all', 'All'], ['error', 'Errors'], ['warning', 'Warnings'], ['info', 'Info'], ['debug', 'Debug'],
];

/**
 * The log table with a level filter made of radio buttons and labels: the
 * stylesheet hides the other rows (`#lf-error:checked ~ table …`), no script.
 */
export function renderLogPanel(profile: Profile): string {
  const { records } = profile.collectors.log;
  const counts: Record<string, number> = { all: records.length, error: 0, warning: 0, info: 0, debug: 0 };
  for (const record of records) counts[logLevelGroup(record.level)]++;
  const inputs = FILTERS.map(([id]) => `<input type="radio" name="lf" class="lf" id="lf-${id}"${id === 'all' ? ' checked' : ''}>`).join('');
  const labels = FILTERS.map(([id, label]) => `<label for="lf-${id}">${label} <span class="b${id === 'error' && counts.error ? ' err' : id === 'warning' && counts.warning ? ' warn' : ''}">${counts[id]}</span></label>`).join('');
  return `<h2>Logs</h2><div class="card">${inputs}<div class="filters">${labels}</div>${renderLogTable(records)}</div>`;
}
