import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';

/** How a cell wider than its column gives way: onto more lines, or cut with an ellipsis. */
export type Overflow = 'wrap' | 'truncate';

/**
 * Columns a string takes in a terminal: styling codes take none, East Asian wide characters and
 * emoji two (string-width follows Unicode's East Asian Width and emoji data, which a code point
 * count does not).
 */
export function visibleWidth(text: string): number {
  return stringWidth(text);
}

/** The lines a cell takes at `width` columns; styling is closed at each line's end and reopened on the next. */
export function fitCell(cell: string, width: number, overflow: Overflow): string[] {
  if (visibleWidth(cell) <= width) return [cell];
  if (overflow === 'wrap') return wrapText(cell, width);
  return [`${wrapAnsi(cell, Math.max(1, width - 1), { hard: true, wordWrap: false, trim: false }).split('\n')[0]}…`];
}

/** Text wrapped at word boundaries to `width` columns, words longer than that cut. */
export function wrapText(text: string, width: number): string[] {
  return wrapAnsi(text, Math.max(1, width), { hard: true }).split('\n');
}
