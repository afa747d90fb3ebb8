import { Command, Option } from 'commander';
import { defaultMaxConnections } from '../core/http/connection-limit.js';
import type { Output } from './output.js';
import { STORE_OPTION_HELP } from './options.js';

export interface ServeOptions {
  port: string;
  host: string;
  app?: string;
  store?: string;
  debug: boolean;
  watch: boolean;
  exposeProfiler: boolean;
  allowHost: string[];
  logLevel: string;
  maxProfiles?: string;
  maxStoreMb?: string;
  maxAge?: string;
  maxConnections?: string;
  public?: string;
  profileStatic: boolean;
  editor?: string;
  slowQuery?: string;
  queryStacks?: string;
  verbose: boolean;
}

export function makeServeCommand(output: Output): Command {
  return (
    new Command('serve')
      .description(
        'Serve the app of the working directory (app.config.ts), or the embedded demo app, with the profiler',
      )
      .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '8000')
      .option('-H, --host <host>', 'address to bind', '127.0.0.1')
      .option('--app <file>', 'app file (default: app.config.ts|.mts|.js|.mjs in the working directory)')
      .option('--store <dir|url>', STORE_OPTION_HELP)
      .option('--no-debug', 'production mode: no profiler, no debug pages or headers')
      .option('--no-watch', 'do not reload the app when its files change')
      .option(
        '--expose-profiler',
        "allow a non-loopback host with the profiler on (it leaks every request's data)",
        false,
      )
      .option(
        '--allow-host <name>',
        'also answer requests whose Host is this name (any port; repeatable); with the profiler on, other names than localhost, 127.0.0.1, [::1] and --host get a 421',
        (name: string, names: string[]) => [...names, name],
        [] as string[],
      )
      .option('--max-profiles <n>', 'keep at most this many profiles (default 10000)')
      .option('--max-store-mb <n>', 'keep the profile store under this many MB (default 200)')
      .option('--max-age <duration>', 'drop profiles older than this (default 7d)')
      .option(
        '--max-connections <n>',
        `at this many open connections, a new one replaces the oldest that has not sent a whole request, or is refused (default ${defaultMaxConnections()}: 1024, or less under a low open-file limit)`,
      )
      .option('--public <dir>', 'serve the files of this folder before routing (default: ./public when it exists)')
      .option('--profile-static', 'profile the answers from the public folder too', false)
      .option(
        '--slow-query <ms>',
        'mark database queries taking at least this many ms as slow in the Database panel (default: none)',
      )
      .option(
        '--query-stacks <runs>',
        "take the stack (the app's line in the Database panel) of this many runs of one statement in each step of a request (a listener, the controller), later runs being assumed to come from the last one's place; all: every run (default 1)",
      )
      .option(
        '--editor <editor>',
        "link the error pages' app frames to an editor: vscode, cursor, idea, phpstorm, sublime, textmate, emacs, atom, or a URL template with %f and %l (default: $APPKERNEL_EDITOR)",
      )
      .addOption(new Option('--log-level <level>', 'print log records at this level and above').default('WARNING'))
      .option('--verbose', "also print a line for each request to the profiler's own pages (/_profiler/...)", false)
      .addHelpText(
        'after',
        `
Examples:
  $ app serve                      ./app.config.ts, or the demo app, on :8000
  $ app serve --port 0 --no-watch  a free port, no reloads
  $ app serve --no-debug           no profiler, production error pages
  $ app serve --allow-host myapp.test --allow-host dev.local
                                   answer as myapp.test:8000 too (/etc/hosts)`,
      )
      // The server and all it loads are imported only by this command.
      .action(async (opts: ServeOptions) => (await import('./serve-action.js')).serve(opts, output))
  );
}
