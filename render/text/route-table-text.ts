import { paint } from './ansi.js';
import { renderTable } from './table.js';
import { terminalSafe } from './terminal-safe.js';
import type { TextOptions } from './text-options.js';

export interface RouteRow {
  name: string;
  methods: string[];
  path: string;
  requirements: Record<string, string>;
  defaults: Record<string, string>;
  controller: string;
}

/** The route table in matching order: Name, Method (ANY when the route takes every method), Path, Controller. */
export function renderRouteTable(routes: readonly RouteRow[], options: TextOptions): string {
  if (routes.length === 0) return 'No routes are defined.\n';
  const rows = routes.map((r) => [
    paint(terminalSafe(r.name), 'green', options.color),
    r.methods.length ? terminalSafe(r.methods.join('|')) : paint('ANY', 'dim', options.color),
    terminalSafe(r.path),
    terminalSafe(r.controller),
  ]);
  return renderTable([{ title: 'Name' }, { title: 'Method' }, { title: 'Path', overflow: 'wrap' }, { title: 'Controller', overflow: 'wrap' }], rows, options);
}
