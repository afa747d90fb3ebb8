import { paint, visibleWidth } from './ansi.js';
import { terminalSafe } from './terminal-safe.js';

type Entries = Iterable<readonly [string, string]>;

/** A section title, underlined so it reads the same with and without colour. */
export function renderHeading(title: string, color: boolean): string {
  return `${paint(title, 'bold', color)}\n${'-'.repeat(visibleWidth(title))}\n`;
}

/** `name  value` lines with aligned values; `(none)` when there is nothing. Keys and values are made terminal-safe. */
export function renderKeyValues(entries: Entries, options: { color: boolean; indent?: string }): string {
  return renderFields([...entries].map(([k, v]) => [terminalSafe(k), terminalSafe(v)] as const), options);
}

/** As renderKeyValues, for values the caller has already made safe (and may have styled). */
export function renderFields(entries: Entries, options: { color: boolean; indent?: string }): string {
  const list = [...entries];
  const indent = options.indent ?? '';
  if (list.length === 0) return `${indent}${paint('(none)', 'dim', options.color)}\n`;
  const width = Math.max(...list.map(([k]) => visibleWidth(k)));
  return list.map(([k, v]) => `${indent}${paint(k + ' '.repeat(width - visibleWidth(k)), 'dim', options.color)}  ${v}`.trimEnd() + '\n').join('');
}
