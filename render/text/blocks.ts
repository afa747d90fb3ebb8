import { paint } from './ansi.js';
import { visibleWidth, wrapText } from './fit.js';
import type { TextOptions } from './text-options.js';
import { terminalSafe } from './terminal-safe.js';

type Entries = Iterable<readonly [string, string]>;
type FieldOptions = TextOptions & { indent?: string };

/** A section title, underlined so it reads the same with and without colour. */
export function renderHeading(title: string, color: boolean): string {
  return `${paint(title, 'bold', color)}\n${'-'.repeat(visibleWidth(title))}\n`;
}

/** `name  value` lines with aligned values; `(none)` when there is nothing. Keys and values are made terminal-safe. */
export function renderKeyValues(entries: Entries, options: FieldOptions): string {
  return renderFields(
    [...entries].map(([k, v]) => [terminalSafe(k), terminalSafe(v)] as const),
    options,
  );
}

/**
 * As renderKeyValues, for values the caller has already made safe (and may have styled). A value
 * wider than the terminal is wrapped, its next lines aligned under its first.
 */
export function renderFields(entries: Entries, options: FieldOptions): string {
  const list = [...entries];
  const indent = options.indent ?? '';
  if (list.length === 0) return `${indent}${paint('(none)', 'dim', options.color)}\n`;
  const width = Math.max(...list.map(([k]) => visibleWidth(k)));
  const hang = ' '.repeat(visibleWidth(indent) + width + 2);
  const room = options.width === undefined ? Infinity : Math.max(20, options.width - hang.length);
  return list
    .map(([k, v]) => {
      const [first = '', ...rest] = visibleWidth(v) > room ? wrapText(v, room) : [v];
      const head =
        `${indent}${paint(k + ' '.repeat(width - visibleWidth(k)), 'dim', options.color)}  ${first}`.trimEnd();
      return [head, ...rest.map((l) => `${hang}${l}`.trimEnd())].map((l) => `${l}\n`).join('');
    })
    .join('');
}
