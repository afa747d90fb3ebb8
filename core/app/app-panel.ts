import { AppError } from '../errors.js';

/**
 * A profiler panel of the app's own. During a request, code records entries for it
 * (`ctx.record(name, entry)` or `record(name, entry)`); when the response is ready, each entry
 * becomes one row of text cells (`row`), stored in the profile and shown as a table in the
 * profiler page, `app profiles show --panel <name>` and the JSON.
 */
export interface AppPanel<Entry = unknown> {
  /** the menu label; default: the name */
  title?: string;
  /** the table's column headings */
  columns: string[];
  /** one entry as its cells, in the columns' order; default: the entry as JSON in one cell */
  row?: (entry: Entry) => unknown[];
}

/** Panel names: lower-case words with "-" or "_", not those of the profiler's own panels. */
const NAME = /^[a-z][a-z0-9_-]{0,39}$/;
/** The names and aliases of panels/built-in-panels.ts, which core/ cannot import (a test keeps them equal). */
export const RESERVED_PANEL_NAMES: ReadonlySet<string> = new Set([
  'request',
  'time',
  'exception',
  'log',
  'events',
  'router',
  'security',
  'http_client',
  'db',
  'dump',
  'config',
  'logger',
  'performance',
  'routing',
  'database',
]);

export function checkPanel(name: unknown, panel: unknown): asserts panel is AppPanel {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new AppError(
      'APP_ERR_APP_PANEL',
      `A panel name is lower-case letters, digits, "-" or "_", starting with a letter, at most 40 characters (${JSON.stringify(String(name))} given).`,
    );
  }
  if (RESERVED_PANEL_NAMES.has(name))
    throw new AppError('APP_ERR_APP_PANEL', `The panel name "${name}" is one of the profiler's own panels.`);
  const columns = (panel as AppPanel | null)?.columns;
  if (!Array.isArray(columns) || columns.length === 0 || !columns.every((c) => typeof c === 'string')) {
    throw new AppError('APP_ERR_APP_PANEL', `The panel "${name}" needs "columns", a non-empty list of strings.`);
  }
  const row = (panel as AppPanel).row;
  if (row !== undefined && typeof row !== 'function')
    throw new AppError('APP_ERR_APP_PANEL', `The panel "${name}": "row" must be a function.`);
}

/** The panel's rows for these entries; a row() that throws, or a cell that cannot be shown, says so in its row. */
export function panelRows(panel: AppPanel, entries: readonly unknown[]): string[][] {
  return entries.map((entry) => {
    try {
      const cells = panel.row ? panel.row(entry) : [json(entry)];
      return (Array.isArray(cells) ? cells : [cells]).map(cellText);
    } catch (error) {
      return [`[row() threw: ${String((error as Error)?.message ?? error)}]`];
    }
  });
}

function cellText(cell: unknown): string {
  if (typeof cell === 'string') return cell;
  if (cell === null || cell === undefined || typeof cell !== 'object') return String(cell);
  return json(cell);
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[value that JSON cannot show]';
  }
}
