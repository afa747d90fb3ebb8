import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import type { RouteCollection } from '../core/routing/route-collection.js';
import { openExistingStore } from './open-store.js';
import { STORE_OPTION_HELP } from './options.js';
import type { Output } from './output.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

interface McpOptions {
  store?: string;
  app?: string;
}

/** `app mcp`: the profiler's tools for a coding agent, over MCP on stdin/stdout (docs/mcp.md). */
export function makeMcpCommand(output: Output): Command {
  return new Command('mcp')
    .description('Serve the profiler to a coding agent over MCP (stdio): profiles, the last error, routes, replay')
    .option('--store <dir|url>', STORE_OPTION_HELP)
    .option(
      '--app <file>',
      'app file whose routes list_routes and explain_route read (default: app.config.* in the working directory, else the demo app)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ app mcp\n  $ app mcp --store ./var/profiler\n\nClient configuration:\n  {"mcpServers":{"appkernel":{"command":"npx","args":["app","mcp"]}}}',
    )
    .action(async (opts: McpOptions) => {
      const storage = await openExistingStore(opts.store, output);
      let routes: Promise<RouteCollection> | null = null;
      const loadRoutes = async (): Promise<RouteCollection> => {
        const cwd = process.cwd();
        const [{ findAppFile, loadApp }, { combinedRoutes }, { profilerRoutes }] = await Promise.all([
          import('../server/load-app.js'),
          import('../core/kernel/build-kernel.js'),
          import('../web-profiler/web-profiler.js'),
        ]);
        const { app } = await loadApp(opts.app ? resolve(cwd, opts.app) : findAppFile(cwd));
        return combinedRoutes(app, [{ routes: profilerRoutes() }]);
      };
      try {
        // Loaded here: the SDK costs every other command its start-up time.
        const { serveMcpOverStdio } = await import('../mcp/stdio-server.js');
        await serveMcpOverStdio(
          {
            storage,
            routes: () =>
              (routes ??= loadRoutes().catch((error: unknown) => {
                routes = null;
                throw error;
              })),
          },
          pkg.version,
        );
      } finally {
        await storage.close();
      }
    });
}
