import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { relative, resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { AppError, AppLoadError } from '../core/errors.js';
import { HostPolicy } from '../core/http/host-policy.js';
import { createAppServer, type ServerTimeouts } from '../core/http/server.js';
import { Request } from '../core/http/request.js';
import { requestSecretValues } from '../core/profiler/request-collector.js';
import type { Response } from '../core/http/response.js';
import type { RequestHandler } from '../core/http/node-adapter.js';
import { terminalSink } from '../core/log/terminal-sink.js';
import { redactLogMessage } from '../core/profiler/redact-log.js';
import type { LogLevel } from '../core/log/log-record.js';
import { isDatabaseUrl, openStorage } from '../core/profiler/storage/open-storage.js';
import { displayUrl } from '../core/profiler/storage/postgres-errors.js';
import type { ProfileStorage } from '../core/profiler/storage/profile-storage.js';
import { closeProfileHandoff, endLiveStreams } from '../web-profiler/web-profiler.js';
import { terminalSafe, terminalSafeBlock } from '../core/terminal-safe.js';
import { summarizeWarnings } from '../core/profiler/storage/warning-summary.js';
import { createAppKernel, type AppKernelOptions } from './kernel-factory.js';
import { effectiveServeOptions, serveConfig } from './serve-config.js';
import { APP_FILES, findAppFile, loadApp, type LoadedApp } from '../core/app/load-app.js';
import { devRequestHandler } from './dev-request-handler.js';
import { mcpRoute } from './mcp-route.js';
import { watchMissingFiles, type MissingFilesWatcher } from './missing-files-watcher.js';
import { addStaticFilesListener } from '../core/app/static-files.js';
import { describeShadowedRoute, findShadowedRoutes } from '../core/app/route-checks.js';
import type { ReloadFailureView } from '../web-profiler/views/reload-banner.js';

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
  profiler?: AppKernelOptions['profiler'];
  /** the node:http server's timeouts and limits (defaults: DEFAULT_TIMEOUTS) */
  timeouts?: Partial<ServerTimeouts>;
  /** URL template (%f, %l) of the error pages' "open in editor" links (default: no links) */
  editor?: string | null;
  /** ms: the Database panel marks queries at least this long as slow (`--slow-query`); none when null or absent */
  slowQueryMs?: number | null;
}

export interface DevServer {
  url: string;
  server: Server;
  storage: ProfileStorage | null;
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
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const printWarning = (message: string) => options.print(`warning: ${terminalSafe(message)}`);
  const warnings = summarizeWarnings(printWarning);
  // What opening the store repaired is told in full (one line per segment); failures while serving are summarised.
  let warn = printWarning;
  const storage = options.debug
    ? await openStorage(options.storeDir, { ...options.retention, onWarning: (message) => warn(message) })
    : null;
  warn = warnings.warn;
  let appFile = options.appFile;
  const lookingForAppFile = appFile === null && options.appDir !== undefined;
  const watching = options.watch && (appFile !== null || lookingForAppFile);
  /** the app file and every local module a load imported, broken loads included */
  const watched = new Set<string>(appFile ? [resolve(appFile)] : []);
  /** while the last reload failed: its message and place (a banner on every page, a header on every response) */
  let failure: ReloadFailureView | null = null;
  /** what each watched file held when the last load read it */
  let seen = new Map<string, string>();
  /** the files the last load's failed imports looked for: one of them appearing reloads */
  let awaited = new Set<string>();
  const load = async (): Promise<LoadedApp> => {
    if (!watching) return loadApp(appFile);
    const before = await fingerprints(watched);
    const missing = new Set<string>();
    try {
      return await loadApp(appFile, watched, missing);
    } finally {
      const missed = [...missing].map((file) => [file, 'missing'] as const);
      seen = new Map([...missed, ...await fingerprints([...watched].filter((file) => !before.has(file))), ...before]);
      awaited = missing;
    }
  };

  const publicDir = options.publicDir ?? null;
  const mcp = storage ? mcpRoute(() => loaded.app, storage) : null;
  const makeKernel = (next: LoadedApp): RequestHandler => {
    const config = serveConfig({ appFile: next.file, root: options.root, storeDir: storage ? shownStore(options.storeDir) : null, options: effectiveServeOptions(options, next.app.options.bodyLimit) });
    const made = createAppKernel(next.app, { debug: options.debug, root: options.root, storage, editor: options.editor ?? null, config, profiler: options.profiler, slowQueryMs: options.slowQueryMs ?? null });
    addStaticFilesListener(made, { dir: publicDir, profile: options.profileStatic ?? false });
    const routed = next.app.routes.all().some((route) => route.path === '/favicon.ico');
    const quietFavicon = () => !routed && (publicDir === null || !existsSync(resolve(publicDir, 'favicon.ico')));
    return devRequestHandler(made, { failure: () => failure, quietFavicon, room: () => storage?.whenRoom?.() ?? null, ...(mcp ? { mcp: mcp.answer } : {}) });
  };
  const warnShadowed = (next: LoadedApp) => {
    for (const shadowed of findShadowedRoutes(next.app.routes)) options.print(`warning: ${describeShadowedRoute(shadowed)}`);
  };
  let loaded = await load();
  warnShadowed(loaded);
  let kernel: RequestHandler = makeKernel(loaded);
  const sink = terminalSink(options.logLevel, options.print, {
    redactMessage: redactLogMessage,
    quietStatuses: options.debug ? QUIET_IN_DEBUG : QUIET_IN_PRODUCTION,
    quietLevel: options.debug ? 'DEBUG' : 'INFO',
    scrubFor: (origin) => (origin instanceof Request ? requestScrubber(origin) : null),
  });
  let stopping = false;
  /** requests the adapter has not finished with once their request event returned; once stopping, each one's end closes idle connections */
  const inFlight = new Set<ServerResponse>();
  const closeIdleAfter = (response: ServerResponse) => response.once('close', () => server.closeIdleConnections());
  const server = createAppServer(() => kernel, {
    ...options.timeouts,
    bodyLimit: loaded.app.options.bodyLimit,
    trustedProxies: loaded.app.options.trustedProxies ?? [],
    hostPolicy: new HostPolicy([options.host, ...options.allowedHosts ?? []]),
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

  await listen(server, options.port, options.host);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  // Profiles in a database several servers share say which one served them.
  storage?.servedBy(`${hostname()}:${address.port}`);

  let watcher: FSWatcher | null = null;
  /** with no app file yet: watches its folder for one */
  let appearing: FSWatcher | null = null;
  let missingFiles: MissingFilesWatcher | null = null;
  const reload = async (changedFiles: readonly string[] = []): Promise<boolean> => {
    const known = watched.size;
    try {
      const next = await load();
      kernel = makeKernel(next);
      loaded = next;
      failure = null;
      const routes = next.app.routes.size;
      const changes = changedFiles.length > 0 ? ` Changed: ${changedFiles.map((file) => relative(options.root, file) || file).join(', ')}.` : '';
      const shownFile = appFile ? relative(process.cwd(), resolve(appFile)) || appFile : String(appFile);
      options.print(`Reloaded ${terminalSafe(shownFile)} (${routes} route${routes === 1 ? '' : 's'}).${terminalSafe(changes)}`);
      warnShadowed(next);
      return true;
    } catch (error) {
      const location = error instanceof AppLoadError && error.location ? error.location : null;
      failure = {
        message: (error as Error).message,
        location: location ? `${location.file}:${location.line}:${location.column}` : String(appFile),
      };
      // The message on one line, its control characters shown; the code frame and stack below it, lines kept.
      const details = error instanceof AppLoadError && error.details ? `\n${terminalSafeBlock(error.details)}` : '';
      options.print(`Reload failed, the last good app keeps serving: ${terminalSafe(String((error as Error)?.message ?? error))}${details}`);
      return false;
    } finally {
      if (watched.size > known && !stopping) watcher?.add([...watched].slice(known));
      if (!stopping) await missingFiles?.follow(awaited);
    }
  };
  /** The watched files that differ from what the last load read, and an app file that appeared. */
  const changed = async (): Promise<string[]> => {
    const files: string[] = [];
    if (lookingForAppFile && appFile === null) {
      appFile = findAppFile(options.appDir!);
      if (appFile !== null) {
        watched.add(appFile);
        watcher?.add(appFile);
        files.push(appFile);
      }
    }
    for (const [file, fingerprint] of await fingerprints(seen.keys())) if (seen.get(file) !== fingerprint) files.push(file);
    return files;
  };
  /** Reloads until the files are the ones the last load read: an edit made during a reload is not lost. */
  const settle = async (ok: boolean) => {
    while (!stopping) {
      const files = await changed();
      if (files.length === 0) break;
      ok = await reload(files);
    }
    return ok;
  };
  let reloading: Promise<boolean> = Promise.resolve(true);
  let checkQueued = false;
  const check = () => {
    if (!checkQueued) {
      checkQueued = true;
      reloading = reloading.then((ok) => { checkQueued = false; return settle(ok); });
    }
    return reloading;
  };
  let recheck: NodeJS.Timeout | undefined;
  if (watching) {
    watcher = watch([...watched], { ignoreInitial: true });
    missingFiles = watchMissingFiles(() => void check());
    await missingFiles.follow(awaited);
    if (lookingForAppFile) {
      // The folder itself, for its app file names only: a path that does not exist yet is not reliably watched.
      const dir = resolve(options.appDir!);
      const candidates = new Set<string>(APP_FILES.map((name) => resolve(dir, name)));
      appearing = watch(dir, { ignoreInitial: true, depth: 0, ignored: (path: string) => resolve(path) !== dir && !candidates.has(resolve(path)) });
      appearing.on('all', () => void check());
      await new Promise<void>((ready) => appearing!.once('ready', () => ready()));
    }
    watcher.on('all', (event, path) => {
      // chokidar stops following a file once it is deleted: followed again, it is seen when it comes back.
      if (event === 'unlink' && !stopping) watcher?.add(path);
      void check();
      // chokidar drops a second change of a file within 50 ms of the first, and nothing follows it.
      clearTimeout(recheck);
      recheck = setTimeout(check, 75);
    });
    // chokidar emits no 'ready' for an empty list (no app file yet)
    if (watched.size > 0) await new Promise<void>((ready) => watcher!.once('ready', () => ready()));
    void check(); // an edit made before the watcher was ready
  }

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      stopping = true;
      clearTimeout(recheck);
      if (storage) endLiveStreams(storage);
      await mcp?.close();
      await watcher?.close();
      await appearing?.close();
      await missingFiles?.close();
      await new Promise<void>((done) => {
        const force = setTimeout(() => {
          options.print(`Closing ${inFlight.size} request(s) still unanswered after ${SHUTDOWN_GRACE_MS / 1000} s.`);
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
      if (storage) await closeProfileHandoff(storage);
      await storage?.close();
      warnings.flush();
    })();
    return closing;
  };

  return {
    url, server, storage,
    get loaded() { return loaded; },
    reload: () => (reloading = reloading.then(() => reload()).then(settle)),
    close,
  };
}

/** Each file's modification time and content hash ("missing" when unreadable). */
async function fingerprints(files: Iterable<string>): Promise<Map<string, string>> {
  return new Map(await Promise.all([...files].map(async (file) => {
    try {
      const [stats, content] = await Promise.all([stat(file), readFile(file)]);
      return [file, `${stats.mtimeMs} ${createHash('sha1').update(content).digest('hex')}`] as const;
    } catch {
      return [file, 'missing'] as const;
    }
  })));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      const why = error.code === 'EADDRINUSE' ? `port ${port} is already in use`
        : error.code === 'EACCES' ? `permission denied for port ${port}`
        : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' ? `the address "${host}" is not available on this machine`
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

/** The store as the configuration panel shows it: a database URL without its password. */
function shownStore(location: string): string {
  if (!isDatabaseUrl(location)) return location;
  try {
    return displayUrl(new URL(location));
  } catch {
    return 'a PostgreSQL database';
  }
}


/** The secret values a request carries by name, scrubbed from its printed log lines as from its profile. */
function requestScrubber(request: Request): (text: string) => string {
  const secrets = requestSecretValues(request);
  return (text) => secrets.scrub(text);
}
