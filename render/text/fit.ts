import { createRequire } from 'node:module';

// string-width builds its Unicode emoji tables when loaded (about 12 ms of every CLI start): it and
// wrap-ansi are loaded at the first text that needs them, which plain ASCII within its width never does.
const load = createRequire(import.meta.url);
let stringWidth: ((text: string) => number) | undefined;
let wrapAnsiLoaded: typeof import('wrap-ansi').default | undefined;
const wrapAnsi: typeof import('wrap-ansi').default = (text, columns, options) =>
  (wrapAnsiLoaded ??= (load('wrap-ansi') as typeof import('wrap-ansi')).default)(text, columns, options);
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/** How a cell wider than its column gives way: onto more lines, or cut with an ellipsis. */
export type Overflow = 'wrap' | 'truncate';

/**
 * Columns a string takes in a terminal: styling codes take none, East Asian wide characters and
 * emoji two (string-width follows Unicode's East Asian Width and emoji data, which a code point
 * count does not).
 */
export function visibleWidth(text: string): number {
  // A missing value (a stored field absent) takes no columns, as string-width counts it.
  if (typeof text !== 'string') return 0;
  if (PLAIN_ASCII.test(text)) return text.length;
  stringWidth ??= (load('string-width') as typeof import('string-width')).default;
  return stringWidth(text);
}

/** The columns a cell takes: its widest line. */
export function cellWidth(cell: string): number {
  return cell.includes('\n') ? Math.max(...cell.split('\n').map(visibleWidth)) : visibleWidth(cell);
}

/**
 * The lines a cell takes at `width` columns, each of its own lines fitted apart (a wrapped line's
 * next lines keep its indent); styling is closed at each line's end and reopened on the next.
 */
export function fitCell(cell: string, width: number, overflow: Overflow): string[] {
  if (cell.includes('\n')) return cell.split('\n').flatMap((line) => fitLine(line, width, overflow));
  return fitLine(cell, width, overflow);
}

function fitLine(line: string, width: number, overflow: Overflow): string[] {
  if (visibleWidth(line) <= width) return [line];
  if (overflow === 'wrap') {
    const indent = /^ */.exec(line)?.[0] ?? '';
    if (indent === '' || indent.length >= width) return wrapText(line, width);
    return wrapText(line.slice(indent.length), width - indent.length).map((part) => indent + part);
  }
  return [`${wrapAnsi(line, Math.max(1, width - 1), { hard: true, wordWrap: false, trim: false }).split('\n')[0]}…`];
}

/** Text wrapped at word boundaries to `width` columns, words longer than that cut. */
export function wrapText(text: string, width: number): string[] {
  return wrapAnsi(text, Math.max(1, width), { hard: true }).split('\n');
}
