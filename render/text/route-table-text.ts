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

/**
 * The route table in matching order: Name, Method (ANY when the route takes every method), Path,
 * Controller. The path shows each placeholder's requirement and default in the syntax a route is
 * written in: `/posts/{id<\d+>}`, `/page/{n?1}`.
 */
export function renderRouteTable(routes: readonly RouteRow[], options: TextOptions): string {
  if (routes.length === 0) return 'No routes are defined.\n';
  const rows = routes.map((r) => [
    paint(terminalSafe(r.name), 'green', options.color),
    r.methods.length ? terminalSafe(r.methods.join('|')) : paint('ANY', 'dim', options.color),
    terminalSafe(withConstraints(r)),
    terminalSafe(r.controller),
  ]);
  return renderTable(
    [
      { title: 'Name' },
      { title: 'Method' },
      { title: 'Path', overflow: 'wrap' },
      { title: 'Controller', overflow: 'wrap' },
    ],
    rows,
    options,
  );
}

/** The path with `<requirement>` and `?default` written into each placeholder that has them. */
function withConstraints(route: RouteRow): string {
  return route.path.replace(/\{([^{}<>?]+)\}/g, (whole, name: string) => {
    const requirement = Object.hasOwn(route.requirements, name) ? `<${route.requirements[name]}>` : '';
    const fallback = Object.hasOwn(route.defaults, name) ? `?${route.defaults[name]}` : '';
    return `{${name}${requirement}${fallback}}`;
  });
}
