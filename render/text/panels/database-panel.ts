import type { Profile } from '../../../core/profiler/profile.js';
import {
  ASSUMED_PLACE_NOTE,
  assumedMark,
  databaseSummary,
  framePlace,
  NO_QUERIES,
  repeatedWarning,
  RUNNABLE_REDACTED_NOTE,
  targetText,
} from '../../database-words.js';
import { paint } from '../ansi.js';
import { renderHeading } from '../blocks.js';
import { formatMs } from '../format.js';
import { plural } from '../../format.js';
import { terminalSafe } from '../terminal-safe.js';

type Options = { color: boolean };

/** The repeated-query warnings, then each query: time, rows, statement, its place, its runnable form. */
export function renderDatabasePanel(profile: Profile, options: Options): string {
  const head = renderHeading('Database', options.color);
  const data = profile.collectors.db;
  if (!data || data.queries.length === 0) return `${head}${paint(NO_QUERIES, 'dim', options.color)}\n`;
  const warnings = (data.repeated ?? [])
    .map(
      (repeat) =>
        `${paint(`! ${terminalSafe(repeatedWarning(repeat))}`, 'yellow', options.color)}\n  ${terminalSafe(repeat.shape)}\n`,
    )
    .join('');
  const queries = data.queries
    .map((query, i) => {
      const marks = (query.error != null ? ' failed' : '') + (query.slow ? ' slow' : '');
      const line = `#${i + 1} ${query.duration == null ? 'in flight' : formatMs(query.duration, 2)}${query.rows == null ? '' : `, ${plural(query.rows, 'row')}`}${marks}`;
      const style = query.error != null ? 'red' : query.slow ? 'yellow' : 'bold';
      return (
        `\n${paint(line, style, options.color)}\n  ${terminalSafe(query.sql).replace(/\n/g, '\n  ')}\n` +
        (query.error == null ? '' : `  ${paint(terminalSafe(query.error), 'red', options.color)}\n`) +
        `  ${paint(`at ${formatMs(query.start, 2)} · ${terminalSafe(targetText(query))} · from ${terminalSafe(framePlace(query.frame))}${assumedMark(query)}`, 'dim', options.color)}\n` +
        (!query.params?.length ? '' : `  Parameters: ${terminalSafe(JSON.stringify(query.params))}\n`) +
        `  Runnable: ${terminalSafe(query.runnable).replace(/\n/g, '\n  ')}\n` +
        (!query.redacted?.length
          ? ''
          : `  ${paint(`Redacted: ${terminalSafe(query.redacted.join(', '))}. ${RUNNABLE_REDACTED_NOTE}`, 'dim', options.color)}\n`)
      );
    })
    .join('');
  const groups = (data.groups ?? [])
    .map(
      (group) =>
        `  ${String(group.count).padStart(4)} × ${formatMs(group.totalTime, 2).padStart(10)}  ${terminalSafe(group.shape)}`,
    )
    .join('\n');
  const assumed = data.queries.some((query) => assumedMark(query) !== '')
    ? `\n${paint(ASSUMED_PLACE_NOTE, 'dim', options.color)}\n`
    : '';
  return `${head}${databaseSummary(data)}\n${warnings ? `\n${warnings}` : ''}${queries}${assumed}\nStatements\n${groups}\n`;
}
