import { paint, visibleWidth } from './ansi.js';

export interface TextColumn {
  title: string;
  align?: 'left' | 'right';
}

const GAP = '  ';

/**
 * Aligned columns under an underlined header. Cells may already be styled;
 * widths count visible characters. The last column is never padded, so no
 * line ends in spaces.
 */
export function renderTable(columns: readonly TextColumn[], rows: readonly (readonly string[])[], options: { color: boolean; indent?: string }): string {
  const indent = options.indent ?? '';
  const widths = columns.map((c, i) => Math.max(visibleWidth(c.title), ...rows.map((r) => visibleWidth(r[i] ?? ''))));
  const line = (cells: readonly string[]) => indent + cells
    .map((cell, i) => (i === cells.length - 1 && columns[i]?.align !== 'right' ? cell : pad(cell, widths[i] ?? 0, columns[i]?.align)))
    .join(GAP).trimEnd();
  const header = line(columns.map((c) => paint(c.title, 'bold', options.color)));
  const rule = line(columns.map((_, i) => '-'.repeat(Math.max(widths[i] ?? 0, 1))));
  return [header, rule, ...rows.map(line)].map((l) => `${l}\n`).join('');
}

function pad(cell: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - visibleWidth(cell)));
  return align === 'right' ? fill + cell : cell + fill;
}
