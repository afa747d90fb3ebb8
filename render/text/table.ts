import { paint } from './ansi.js';
import { cellWidth, fitCell, visibleWidth, type Overflow } from './fit.js';
import type { TextOptions } from './text-options.js';

export interface TextColumn {
  title: string;
  align?: 'left' | 'right';
  /** how the column gives way when the table is wider than the terminal; a column without keeps its width */
  overflow?: Overflow;
  /** a column of markers (≠, ~): left blank in the rule, so that the rule does not read as one */
  marker?: boolean;
}

export interface TableOptions extends TextOptions {
  indent?: string;
}

const GAP = '  ';
/** A column that gives way keeps at least this many columns (or its widest cell, if narrower). */
const MIN_WIDTH = 10;

/**
 * Aligned columns under an underlined header. Cells may already be styled; widths are measured
 * as a terminal shows them. When the table is wider than `options.width`, the columns that may
 * give way are narrowed (the narrowest keep their width first) and their cells wrapped or cut.
 * The last column is never padded, so no line ends in spaces. A cell may hold line breaks: each of
 * its lines is fitted apart.
 */
export function renderTable(
  columns: readonly TextColumn[],
  rows: readonly (readonly string[])[],
  options: TableOptions,
): string {
  const indent = options.indent ?? '';
  const natural = columns.map((c, i) => Math.max(visibleWidth(c.title), ...rows.map((r) => cellWidth(r[i] ?? ''))));
  const widths =
    options.width === undefined ? natural : fitWidths(columns, natural, options.width - visibleWidth(indent));
  const line = (cells: readonly string[]) =>
    indent +
    cells
      .map((cell, i) =>
        i === cells.length - 1 && columns[i]?.align !== 'right' ? cell : pad(cell, widths[i] ?? 0, columns[i]?.align),
      )
      .join(GAP)
      .trimEnd();
  const header = line(columns.map((c) => paint(c.title, 'bold', options.color)));
  const rule = line(columns.map((c, i) => (c.marker ? '' : '-'.repeat(Math.max(widths[i] ?? 0, 1)))));
  const body = rows.flatMap((row) => {
    const parts = columns.map((c, i) => fitCell(row[i] ?? '', widths[i] ?? 0, c.overflow ?? 'wrap'));
    const height = Math.max(1, ...parts.map((p) => p.length));
    return Array.from({ length: height }, (_, n) => line(parts.map((p) => p[n] ?? '')));
  });
  return [header, rule, ...body].map((l) => `${l}\n`).join('');
}

/** Column widths that fit `room`, taken from the columns that may give way, the narrowest served first. */
function fitWidths(columns: readonly TextColumn[], natural: readonly number[], room: number): number[] {
  const total = natural.reduce((sum, w) => sum + w, 0) + GAP.length * (columns.length - 1);
  if (total <= room) return [...natural];
  const flexible = columns.map((c, i) => i).filter((i) => columns[i]?.overflow !== undefined);
  const fixed = total - flexible.reduce((sum, i) => sum + (natural[i] ?? 0), 0);
  const widths = [...natural];
  let left = room - fixed;
  let count = flexible.length;
  for (const i of flexible.sort((x, y) => (natural[x] ?? 0) - (natural[y] ?? 0))) {
    const want = natural[i] ?? 0;
    const floor = Math.min(want, Math.max(MIN_WIDTH, visibleWidth(columns[i]?.title ?? '')));
    widths[i] = Math.max(floor, Math.min(want, Math.floor(left / count)));
    left -= widths[i] ?? 0;
    count -= 1;
  }
  return widths;
}

function pad(cell: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - visibleWidth(cell)));
  return align === 'right' ? fill + cell : cell + fill;
}
