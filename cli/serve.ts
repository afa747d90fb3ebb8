import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { startDevServer } from '../server/dev-server.js';
import { findAppFile, isLoadFailure } from '../core/app/load-app.js';
import { AppError } from '../core/errors.js';
import { normalizeHostName } from '../core/http/host-policy.js';
import { DEFAULT_TIMEOUTS } from '../core/http/server.js';
import { isLogLevel } from '../core/log/logger.js';
import type { LogLevel } from '../core/profiler/profile.js';
import { terminalSafe, terminalSafeError } from '../render/text/terminal-safe.js';
import { requestLineFormatter } from './request-line.js';
import { setDumpEcho } from '../core/debug/dump.js';
import { redactDumpEntry } from '../core/profiler/collectors/dump-collector.js';
import { renderDumpEntry } from '../render/text/panels/dump-panel.js';
import { lineBatcher } from './line-batcher.js';
import { paintLogLevel } from './log-line-color.js';
import type { Output } from './output.js';
import { describeStoreLocation, parseDuration, parseInteger, parsePort, resolveEditor, resolveStoreLocation, STORE_OPTION_HELP } from './options.js';

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
  verbose: boolean;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

export function makeServeCommand(output: Output): Command {
  return new Command('serve')
    .description('Serve the app of the working directory (app.config.ts), or the embedded demo app, with the profiler')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '8000')
    .option('-H, --host <host>', 'address to bind', '127.0.0.1')
    .option('--app <file>', 'app file (default: app.config.ts|.mts|.js|.mjs in the working directory)')
    .option('--store <dir|url>', STORE_OPTION_HELP)
    .option('--no-debug', 'production mode: no profiler, no debug pages or headers')
    .option('--no-watch', 'do not reload the app when its files change')
    .option('--expose-profiler', 'allow a non-loopback host with the profiler on (it leaks every request\'s data)', false)
    .option('--allow-host <name>', 'also answer requests whose Host is this name (any port; repeatable); with the profiler on, other names than localhost, 127.0.0.1, [::1] and --host get a 421',
      (name: string, names: string[]) => [...names, name], [] as string[])
    .option('--max-profiles <n>', 'keep at most this many profiles (default 10000)')
    .option('--max-store-mb <n>', 'keep the profile store under this many MB (default 200)')
    .option('--max-age <duration>', 'drop profiles older than this (default 7d)')
    .option('--max-connections <n>', `at this many open connections, a new one replaces the oldest that has not sent a whole request, or is refused (default ${DEFAULT_TIMEOUTS.maxConnections}: 1024, or less under a low open-file limit)`)
    .option('--public <dir>', 'serve the files of this folder before routing (default: ./public when it exists)')
    .option('--profile-static', 'profile the answers from the public folder too', false)
    .option('--editor <editor>', 'link the error pages\' app frames to an editor: vscode, cursor, idea, phpstorm, sublime, textmate, emacs, atom, or a URL template with %f and %l (default: $APPKERNEL_EDITOR)')
    .addOption(new Option('--log-level <level>', 'print log records at this level and above').default('WARNING'))
    .option('--verbose', 'also print a line for each request to the profiler\'s own pages (/_profiler/...)', false)
    .addHelpText('after', `
Examples:
  $ app serve                      the demo app (or ./app.config.ts) on http://127.0.0.1:8000
  $ app serve --port 0 --no-watch  a free port, no reloads
  $ app serve --no-debug           no profiler, production error pages
  $ app serve --allow-host myapp.test --allow-host dev.local
                                   also answer as http://myapp.test:8000 (a name in /etc/hosts)`)
    .action(async (opts: ServeOptions) => {
      const port = parsePort(opts.port);
      const editor = resolveEditor(opts.editor);
      const logLevel = opts.logLevel.toUpperCase();
      if (!isLogLevel(logLevel)) throw new AppError('APP_ERR_CLI_USAGE', `Unknown log level "${opts.logLevel}" (DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY).`);
      if (opts.debug && !LOOPBACK.test(opts.host)) {
        if (!opts.exposeProfiler) {
          throw new AppError('APP_ERR_SERVE_EXPOSED',
            `Refusing to listen on "${opts.host}" with the profiler on: anyone who can reach it could read every request's data. Use --expose-profiler to do it anyway, or --no-debug.`);
        }
        output.err(`warning: the profiler is exposed on ${terminalSafe(opts.host)}: it shows every request's headers, bodies and logs to anyone who can reach it.\n`);
      }
      const allowedHosts = opts.allowHost.map(parseAllowedHost);
      const maxConnections = opts.maxConnections === undefined ? undefined : parseInteger(opts.maxConnections, 'max-connections', 1);
      const retention = {
        ...(opts.maxProfiles !== undefined ? { maxProfiles: parseInteger(opts.maxProfiles, 'max-profiles', 1) } : {}),
        ...(opts.maxStoreMb !== undefined ? { maxBytes: parseInteger(opts.maxStoreMb, 'max-store-mb', 1) * 1024 * 1024 } : {}),
        ...(opts.maxAge !== undefined ? { maxAgeMs: parseDuration(opts.maxAge) } : {}),
      };
      // A controller's stray promise or timer must not take the dev server down with it.
      const survive = (what: string) => (error: unknown) => {
        output.err(`${what}, the server keeps running: ${terminalSafeError(error)}\n`);
      };
      process.on('uncaughtException', survive('Uncaught exception outside any request'));
      const rejected = survive('Unhandled promise rejection outside any request');
      // Reported a moment later, and not at all when a load failed with it: it is then the failed reload's reason.
      process.on('unhandledRejection', (error) => void setTimeout(() => { if (!isLoadFailure(error)) rejected(error); }, 100));
      const cwd = process.cwd();
      const appFile = opts.app ? resolve(cwd, opts.app) : findAppFile(cwd);
      const publicDir = resolvePublicDir(opts.public, cwd);
      const lines = lineBatcher(output.err);
      const server = await startDevServer({
        port, host: opts.host, allowedHosts, appFile, root: cwd,
        ...(opts.app ? {} : { appDir: cwd }),
        publicDir, profileStatic: opts.profileStatic,
        storeDir: resolveStoreLocation(opts.store, cwd), retention,
        debug: opts.debug, watch: opts.watch && opts.debug,
        logLevel: logLevel as LogLevel, editor,
        ...(maxConnections !== undefined ? { timeouts: { maxConnections } } : {}),
        print: (line) => lines.push(paintLogLevel(line, output.errColor)),
        formatRequest: requestLineFormatter(output.errColor, { profilerRequests: opts.verbose }),
      });
      lines.flush();
      setDumpEcho((entry) => lines.push(renderDumpEntry(redactDumpEntry(entry), { color: output.errColor }).replace(/\n$/, '')));
      output.err(`appkernel serving ${appFile ? terminalSafe(appFile) : 'the embedded demo app'} at ${server.url}/\n`);
      if (opts.debug) output.err(`Profiler: ${server.url}/_profiler (profiles in ${terminalSafe(describeStoreLocation(resolveStoreLocation(opts.store, cwd)))})\n`);
      else output.err('Debug is off: no profiler.\n');
      if (publicDir) output.err(`Public files: ${publicDir}${opts.profileStatic ? ' (profiled)' : ''}\n`);
      await new Promise<void>((done) => {
        const stop = (signal: string) => {
          lines.flush();
          output.err(`${signal}: finishing requests in flight and profile writes...\n`);
          server.close().finally(lines.flush).then(done, done);
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
      // The server is closed: a timer or socket the app left open must not keep the process alive.
      setTimeout(() => process.exit(), 500).unref();
    });
}

function parseAllowedHost(name: string): string {
  const host = normalizeHostName(name);
  if (host === null) {
    throw new AppError('APP_ERR_CLI_USAGE',
      `Invalid --allow-host "${name}": give a host name, an IPv4 address or an IPv6 address, without a port (every port is accepted).`);
  }
  return host;
}

/** --public must name a folder; without it, ./public is served when there is one. */
function resolvePublicDir(given: string | undefined, cwd: string): string | null {
  if (given === undefined) {
    const fallback = resolve(cwd, 'public');
    return existsSync(fallback) && statSync(fallback).isDirectory() ? fallback : null;
  }
  const dir = resolve(cwd, given);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new AppError('APP_ERR_CLI_USAGE', `The public folder "${given}" does not exist or is not a folder (--public).`);
  }
  return dir;
}
