import { existsSync } from 'node:fs';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { AppError } from '../core/errors.js';
import { HostPolicy } from '../core/http/host-policy.js';
import { createAppServer, type ServerTimeouts } from '../core/http/server.js';
import { Request } from '../core/http/request.js';
import { requestSecretValues } from '../core/profiler/request-collector.js';
import type { Response } from '../core/http/response.js';
import type { RequestHandler } from '../core/http/node-adapter.js';
import { terminalSink } from '../core/log/terminal-sink.js';
import type { LogLevel } from '../core/log/log-record.js';
import { shownLocation } from '../core/profiler/storage/open-storage.js';
import { openProfileIntake, type ProfileIntake } from '../core/profiler/handoff/profile-intake.js';
import { ServerName } from '../core/profiler/server-name.js';
import { WebProfiler } from '../web-profiler/web-profiler.js';
import { terminalSafe } from '../core/terminal-safe.js';
import { summarizeWarnings } from '../core/profiler/storage/warning-summary.js';
import { createAppKernel, type AppKernelOptions } from './kernel-factory.js';
import { effectiveServeOptions, serveConfig } from './serve-config.js';
import type { LoadedApp } from './load-app.js';
import { devRequestHandler } from './dev-request-handler.js';
import { mcpRoute, type McpRoute } from './mcp-route.js';
import { addStaticFilesListener } from './static-files.js';
import type { ReloadFailureView } from '../web-profiler/views/reload-banner.js';
import { AppWatch } from './app-watch.js';

/** Hosts that only this machine reaches: the profiler may listen there without --expose-profiler. */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;
/** how long close() lets requests in flight run before it cuts their connections */
const SHUTDOWN_GRACE_MS = 5_000;
/** Outside debug, the uncaught-error records of these statuses print only at --log-level INFO or lower. */
const QUIET_IN_PRODUCTION = [404, 405];
/** In debug, every expected 4xx is explained by its page and profile: its uncaught-error record prints only at DEBUG. */
const QUIET_IN_DEBUG = Array.from({ length: 100 }, (_, i) => 400 + i);

export interface DevServerOptions {
  port: number;
  host: string;
  /** names besides loopback and `host` the server answers as (any port); in debug mode other Hosts get a 421 */
  allowedHosts?: readonly string[];
  /** the app file; null serves the embedded demo app */
  appFile: string | null;
  /** with no app file: the folder where one may appear (APP_FILES), served as soon as it does (watch mode) */
  appDir?: string;
  /** files served as they are, before routing (default: none) */
  publicDir?: string | null;
  /** profile the answers from publicDir too (default: not) */
  profileStatic?: boolean;
  root: string;
  /** the profile store: a folder, or a postgres:// URL of a database several servers share */
  storeDir: string;
  /** retention of the profile store (defaults: the store's own) */
  retention?: { maxProfiles?: number; maxBytes?: number; maxAgeMs?: number };
  debug: boolean;
  watch: boolean;
  /** records at this level and above are printed */
  logLevel: LogLevel;
  /** prints one line (request log, reload notices, errors) */
  print: (line: string) => void;
  /** the line printed for an answered request; null prints none */
  formatRequest?: (request: Request, response: Response, ms: number) => string | null;
  /** what the profiler records of app code (default: everything; the benchmarks turn parts off) */
  recording?: AppKernelOptions['recording'];
  /** listen on a host other machines reach with the profiler on (default: refused with APP_ERR_SERVE_EXPOSED) */
  exposeProfiler?: boolean;
  /** the node:http server's timeouts and limits (defaults: DEFAULT_TIMEOUTS) */
  timeouts?: Partial<ServerTimeouts>;
  /** URL template (%f, %l) of the error pages' "open in editor" links (default: no links) */
  editor?: string | null;
  /** ms: the Database panel marks queries at least this long as slow (`--slow-query`); none when null or absent */
  slowQueryMs?: number | null;
  /** runs of one statement in a request whose stack is taken (`--query-stacks`); default 3 */
  queryStacks?: number;
}

export interface DevServer {
  url: string;
  server: Server;
  /** the store behind the hand-off's intake (admission, counts, waits for profiles in flight) */
  storage: ProfileIntake | null;
  loaded: LoadedApp;
  /** reloads the app file now; resolves false when the new version failed to load (the old keeps serving) */
  reload(): Promise<boolean>;
  /** stops accepting, finishes requests in flight and profile writes */
  close(): Promise<void>;
}

/**
 * Serves an app with the profiler. In watch mode a changed app file (or a module
 * it imports) swaps the kernel without closing the socket; in-flight requests
 * finish on the old kernel; a broken edit keeps the last good app serving.
 * Composed of the steps below, in order: the exposure guard, the store and its profiler, the app
 * (and its watch), the HTTP server; close() undoes them in reverse.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  guardExposure(options);
  const printWarning = (message: string) => options.print(`warning: ${terminalSafe(message)}`);
  // What opening the store repaired is told in full (one line per segment); failures while serving are summarised.
  // Profiles in a database several servers share say which one served them: its port is known once it listens.
  const serverName = new ServerName();
  const storage = options.debug ? await openProfileStore(options, serverName, printWarning) : null;
  const warnings = summarizeWarnings(printWarning);
  const profiler = storage ? new WebProfiler(storage, warnings.warn) : null;
  const mcp = storage ? mcpRoute(() => app.loaded.app, storage) : null;
  const makeKernel = kernelMaker(options, profiler, () => app.failure, mcp);
  let kernel: RequestHandler | null = null;
  const app = new AppWatch(options, (next) => {
    kernel = makeKernel(next);
  });
  let served: ServedHttp | null = null;
  const close = once(async () => {
    profiler?.endLiveStreams();
    await mcp?.close();
    await app.close();
    await served?.close(options.print);
    await profiler?.close();
    await storage?.close();
    warnings.flush();
  });
  try {
    served = serveHttp(options, () => kernel!, await app.loadFirst());
    await listen(served.server, options.port, options.host);
  } catch (error) {
    await close();
    throw error;
  }
  const address = served.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  serverName.set(`${hostname()}:${address.port}`);
  await app.start();
  return {
    url: `http://${host}:${address.port}`,
    server: served.server,
    storage,
    get loaded() {
      return app.loaded;
    },
    reload: () => app.reload(),
    close,
  };
}

/** A non-loopback host with the profiler on shows every request's data to whoever reaches it: refused unless asked for. */
function guardExposure(options: DevServerOptions): void {
  if (!options.debug || LOOPBACK.test(options.host)) return;
  if (!options.exposeProfiler) {
    throw new AppError(
      'APP_ERR_SERVE_EXPOSED',
      `Refusing to listen on "${options.host}" with the profiler on: anyone who can reach it could read every request's data. Use --expose-profiler to do it anyway, or --no-debug.`,
    );
  }
  options.print(
    `warning: the profiler is exposed on ${terminalSafe(options.host)}: it shows every request's headers, bodies and logs to anyone who can reach it.`,
  );
}

function openProfileStore(
  options: DevServerOptions,
  serverName: ServerName,
  warn: (message: string) => void,
): Promise<ProfileIntake> {
  return openProfileIntake(options.storeDir, { ...options.retention, serverName, warn });
}

/** What makes the kernel of each version of the app: the app, its profiler and public files, under the dev server's handler. */
function kernelMaker(
  options: DevServerOptions,
  profiler: WebProfiler | null,
  failure: () => ReloadFailureView | null,
  mcp: McpRoute | null,
): (next: LoadedApp) => RequestHandler {
  const publicDir = options.publicDir ?? null;
  const storeShown = profiler ? shownLocation(options.storeDir) : null;
  return (next) => {
    const config = serveConfig({
      appFile: next.file,
      root: options.root,
      storeDir: storeShown,
      options: effectiveServeOptions(options, next.app.options.bodyLimit),
    });
    const made = createAppKernel(next.app, {
      debug: options.debug,
      root: options.root,
      profiler,
      editor: options.editor ?? null,
      config,
      recording: options.recording,
      slowQueryMs: options.slowQueryMs ?? null,
      queryStacks: options.queryStacks,
    });
    addStaticFilesListener(made, { dir: publicDir, profile: options.profileStatic ?? false });
    const routed = next.app.routes.all().some((route) => route.path === '/favicon.ico');
    const quietFavicon = () => !routed && (publicDir === null || !existsSync(resolve(publicDir, 'favicon.ico')));
    return devRequestHandler(made, {
      failure,
      quietFavicon,
      room: () => profiler?.storage.whenRoom() ?? null,
      ...(mcp ? { mcp: mcp.answer } : {}),
    });
  };
}

interface ServedHttp {
  server: Server;
  /** Stops accepting; requests in flight get SHUTDOWN_GRACE_MS to finish, then their connections are cut. */
  close(print: (line: string) => void): Promise<void>;
}

/** The node:http server in front of whichever kernel serves now, with the terminal's log sink and request lines. */
function serveHttp(options: DevServerOptions, kernel: () => RequestHandler, loaded: LoadedApp): ServedHttp {
  const sink = terminalSink(options.logLevel, options.print, {
    quietStatuses: options.debug ? QUIET_IN_DEBUG : QUIET_IN_PRODUCTION,
    quietLevel: options.debug ? 'DEBUG' : 'INFO',
    scrubFor: (origin) => (origin instanceof Request ? requestScrubber(origin) : null),
  });
  let stopping = false;
  /** requests the adapter has not finished with once their request event returned; once stopping, each one's end closes idle connections */
  const inFlight = new Set<ServerResponse>();
  const closeIdleAfter = (response: ServerResponse) => response.once('close', () => server.closeIdleConnections());
  const server = createAppServer(kernel, {
    ...options.timeouts,
    bodyLimit: loaded.app.options.bodyLimit,
    trustedProxies: loaded.app.options.trustedProxies ?? [],
    hostPolicy: new HostPolicy([options.host, ...(options.allowedHosts ?? [])]),
    refuseOtherHosts: options.debug,
    logSink: sink,
    debug: options.debug,
    onResponse: (request, response) => {
      const line = options.formatRequest?.(request, response, request.elapsed());
      if (line) options.print(line);
    },
    onRequest: (response) => {
      if (!stopping) return;
      response.setHeader('Connection', 'close');
      closeIdleAfter(response);
    },
    // A request answered before its request event returned is never in flight: only the others are kept.
    onPending: (response) => inFlight.add(response),
    onSettled: (response) => inFlight.delete(response),
  });
  const close = async (print: (line: string) => void) => {
    stopping = true;
    if (!server.listening) return;
    await new Promise<void>((done) => {
      const force = setTimeout(() => {
        print(`Closing ${inFlight.size} request(s) still unanswered after ${SHUTDOWN_GRACE_MS / 1000} s.`);
        server.closeAllConnections();
      }, SHUTDOWN_GRACE_MS);
      server.close(() => {
        clearTimeout(force);
        done();
      });
      // Answers not yet begun close their connection; each one still in flight closes the idle ones when it ends.
      for (const response of inFlight) {
        if (!response.headersSent) response.setHeader('Connection', 'close');
        closeIdleAfter(response);
      }
      server.closeIdleConnections();
    });
    // Let kernel.terminate (scheduled with setImmediate after each response) queue its profile.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { server, close };
}

/** `work`, run at the first call; every call resolves with that run. */
function once(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => (running ??= work());
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const why =
        error.code === 'EADDRINUSE'
          ? `port ${port} is already in use`
          : error.code === 'EACCES'
            ? `permission denied for port ${port}`
            : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
              ? `the address "${host}" is not available on this machine`
              : error.message;
      reject(new AppError('APP_ERR_SERVE_LISTEN', `Cannot listen on ${host}:${port}: ${why}.`, { cause: error }));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** The secret values a request carries by name, scrubbed from its printed log lines as from its profile. */
function requestScrubber(request: Request): (text: string) => string {
  const secrets = requestSecretValues(request);
  return (text) => secrets.scrub(text);
}
