import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { startDevServer } from '../server/dev-server.js';
import { findAppFile, isLoadFailure } from '../server/load-app.js';
import { AppError } from '../core/errors.js';
import { normaliseHostName } from '../core/http/host-policy.js';
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
import {
  describeStoreLocation,
  parseDuration,
  parseInteger,
  parseMs,
  parseQueryStacks,
  parsePort,
  resolveEditor,
  resolveStoreLocation,
} from './options.js';
import type { ServeOptions } from './serve.js';
import { PROFILER_PATH } from '../core/profiler/profiler-urls.js';

/** `app serve`, once its options are parsed: runs until SIGINT or SIGTERM. */
export async function serve(opts: ServeOptions, output: Output): Promise<void> {
  const port = parsePort(opts.port);
  const editor = resolveEditor(opts.editor);
  const slowQueryMs = opts.slowQuery === undefined ? null : parseMs(opts.slowQuery, 'slow-query');
  const queryStacks = opts.queryStacks === undefined ? undefined : parseQueryStacks(opts.queryStacks);
  const logLevel = opts.logLevel.toUpperCase();
  if (!isLogLevel(logLevel))
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Unknown log level "${opts.logLevel}" (DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY).`,
    );
  const allowedHosts = opts.allowHost.map(parseAllowedHost);
  const maxConnections =
    opts.maxConnections === undefined ? undefined : parseInteger(opts.maxConnections, 'max-connections', 1);
  const retention = {
    ...(opts.maxProfiles !== undefined ? { maxProfiles: parseInteger(opts.maxProfiles, 'max-profiles', 1) } : {}),
    ...(opts.maxStoreMb !== undefined
      ? { maxBytes: parseInteger(opts.maxStoreMb, 'max-store-mb', 1) * 1024 * 1024 }
      : {}),
    ...(opts.maxAge !== undefined ? { maxAgeMs: parseDuration(opts.maxAge) } : {}),
  };
  // A controller's stray promise or timer must not take the dev server down with it.
  const survive = (what: string) => (error: unknown) => {
    output.err(`${what}, the server keeps running: ${terminalSafeError(error)}\n`);
  };
  process.on('uncaughtException', survive('Uncaught exception outside any request'));
  const rejected = survive('Unhandled promise rejection outside any request');
  // Reported a moment later, and not at all when a load failed with it: it is then the failed reload's reason.
  process.on(
    'unhandledRejection',
    (error) =>
      void setTimeout(() => {
        if (!isLoadFailure(error)) rejected(error);
      }, 100),
  );
  const cwd = process.cwd();
  const appFile = opts.app ? resolve(cwd, opts.app) : findAppFile(cwd);
  const publicDir = resolvePublicDir(opts.public, cwd);
  const lines = lineBatcher(output.err);
  const server = await startDevServer({
    port,
    host: opts.host,
    allowedHosts,
    appFile,
    root: cwd,
    ...(opts.app ? {} : { appDir: cwd }),
    publicDir,
    profileStatic: opts.profileStatic,
    storeDir: resolveStoreLocation(opts.store, cwd),
    retention,
    debug: opts.debug,
    watch: opts.watch && opts.debug,
    exposeProfiler: opts.exposeProfiler,
    logLevel: logLevel as LogLevel,
    editor,
    slowQueryMs,
    ...(queryStacks === undefined ? {} : { queryStacks }),
    ...(maxConnections !== undefined ? { timeouts: { maxConnections } } : {}),
    print: (line) => lines.push(paintLogLevel(line, output.errColor)),
    formatRequest: requestLineFormatter(output.errColor, { profilerRequests: opts.verbose }),
  });
  lines.flush();
  setDumpEcho((entry) =>
    lines.push(renderDumpEntry(redactDumpEntry(entry), { color: output.errColor }).replace(/\n$/, '')),
  );
  output.err(`appkernel serving ${appFile ? terminalSafe(appFile) : 'the embedded demo app'} at ${server.url}/\n`);
  if (opts.debug)
    output.err(
      `Profiler: ${server.url}${PROFILER_PATH} (profiles in ${terminalSafe(describeStoreLocation(resolveStoreLocation(opts.store, cwd)))})\n`,
    );
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
}

function parseAllowedHost(name: string): string {
  const host = normaliseHostName(name);
  if (host === null) {
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Invalid --allow-host "${name}": give a host name, an IPv4 address or an IPv6 address, without a port (every port is accepted).`,
    );
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
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `The public folder "${given}" does not exist or is not a folder (--public).`,
    );
  }
  return dir;
}
