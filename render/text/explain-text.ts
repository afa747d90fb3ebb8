import type { RouteExplanation } from '../../core/profiler/profile.js';
import { paint } from './ansi.js';
import { renderTable } from './table.js';
import { terminalSafe } from './terminal-safe.js';
import type { TextOptions } from './text-options.js';

/** Why each route does (not) match, in matching order; the last line names the winner or says none matches. */
export function renderExplainText(explanations: readonly RouteExplanation[], options: TextOptions): string {
  const winner = explanations.find((e) => e.verdict === 'match');
  const verdict = winner
    ? paint(`Route "${terminalSafe(winner.name)}" matches.`, 'green', options.color)
    : paint('No route matches.', 'red', options.color);
  if (explanations.length === 0) return `${verdict}\n`;
  const rows = explanations.map((e) => [
    e.verdict === 'match' ? paint('match', 'green', options.color) : paint('miss', 'red', options.color),
    terminalSafe(e.name),
    e.methods.length ? terminalSafe(e.methods.join('|')) : 'ANY',
    terminalSafe(e.path),
    terminalSafe(e.detail),
  ]);
  const table = renderTable(
    [
      { title: '' },
      { title: 'Route' },
      { title: 'Method' },
      { title: 'Path', overflow: 'wrap' },
      { title: 'Why', overflow: 'wrap' },
    ],
    rows,
    options,
  );
  return `${table}\n${verdict}\n`;
}
