import { resolve } from 'node:path';
import { Command } from 'commander';
import { AppError } from '../core/errors.js';
import type { RouteCollection } from '../core/routing/route-collection.js';
import { jsonForTerminal } from '../render/text/terminal-safe.js';
import { textOptions, type Output } from './output.js';

interface RoutesOptions {
  app?: string;
  json: boolean;
  debug: boolean;
  wide?: boolean;
}
interface MatchOptions {
  method: string;
}

/** The app's routes; the app loader and the profiler are imported only when a routes command runs. */
async function loadRoutes(opts: RoutesOptions, output: Output): Promise<RouteCollection> {
  const [
    { findAppFile, loadApp },
    { describeShadowedRoute, findShadowedRoutes },
    { combinedRoutes },
    { profilerRoutes },
  ] = await Promise.all([
    import('../server/load-app.js'),
    import('../core/app/route-checks.js'),
    import('../core/kernel/build-kernel.js'),
    import('../web-profiler/web-profiler.js'),
  ]);
  const cwd = process.cwd();
  const { app } = await loadApp(opts.app ? resolve(cwd, opts.app) : findAppFile(cwd));
  const routes = combinedRoutes(app, opts.debug ? [{ routes: profilerRoutes() }] : []);
  for (const shadowed of findShadowedRoutes(routes)) output.err(`warning: ${describeShadowedRoute(shadowed)}\n`);
  return routes;
}

export function makeRoutesCommand(output: Output): Command {
  const routes = new Command('routes')
    .description("List the routes in matching order (the profiler's included)")
    .option('--app <file>', 'app file (default: app.config.* in the working directory, else the demo app)')
    .option('--json', 'print JSON instead of a table', false)
    .option('--no-debug', "leave out the profiler's routes")
    .option('--wide', "do not fit the table to the terminal's width (default: its width, else $COLUMNS, else 100)")
    .addHelpText(
      'after',
      `
Examples:
  $ app routes
  $ app routes --json | jq '.[].name'
  $ app routes match /hello/world
  $ app routes match /contact --method POST`,
    )
    .action(async (opts: RoutesOptions) => {
      const list = (await loadRoutes(opts, output)).all().map((r) => ({
        name: r.name,
        methods: [...r.methods],
        path: r.path,
        requirements: { ...r.requirements },
        defaults: { ...r.defaults },
        controller: r.controller,
      }));
      if (opts.json) return output.out(`${jsonForTerminal(list)}\n`);
      const { renderRouteTable } = await import('../render/text/route-table-text.js');
      output.out(renderRouteTable(list, textOptions(output, opts.wide)));
    });

  routes
    .command('match')
    .description('Show which route matches a path, or why each route does not; exit 1 when none matches')
    .argument('<path>', 'the path to match, e.g. /hello/world')
    .option('-m, --method <method>', 'the HTTP method', 'GET')
    .addHelpText(
      'after',
      '\nExamples:\n  $ app routes match /hello/world\n  $ app routes match /contact --method POST\n  $ app routes --json match /robots.txt',
    )
    .action(async (path: string, opts: MatchOptions, command: Command) => {
      if (!path.startsWith('/'))
        throw new AppError('APP_ERR_CLI_USAGE', `Invalid path "${path}": paths start with "/".`);
      const parent = command.parent!.opts() as RoutesOptions;
      // Routes match the path alone, as for a request: a query or fragment copied with it is left out.
      const routes = await loadRoutes(parent, output);
      const [{ explain }, { renderExplainText }] = await Promise.all([
        import('../core/routing/explain.js'),
        import('../render/text/explain-text.js'),
      ]);
      const explanations = explain(routes, opts.method.toUpperCase(), path.replace(/[?#][\s\S]*$/, ''));
      output.out(
        parent.json
          ? `${jsonForTerminal(explanations)}\n`
          : renderExplainText(explanations, textOptions(output, parent.wide)),
      );
      if (!explanations.some((e) => e.verdict === 'match')) output.exitCode = 1;
    });
  return routes;
}
