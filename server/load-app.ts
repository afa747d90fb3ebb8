import { existsSync, statSync } from 'node:fs';
import { createRequire, register as registerHooks } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { AppError, AppLoadError } from '../core/errors.js';
import { forgetMappedStacks } from '../core/kernel/source-mapped-stacks.js';
import { isOwnFile, OWN_FOLDERS } from '../core/package-root.js';
import type { App } from '../core/app/app.js';
import { APP_FILES } from '../core/app/app-files.js';
import { createDemoApp } from '../core/app/demo-app.js';
import { describeLoadError, formatLoadErrorReport } from './load-error.js';

export { APP_FILES };

export interface LoadedApp {
  app: App;
  /** the app file, or null for the embedded demo app */
  file: string | null;
  /** the app file and every local module it imported (for watch mode) */
  dependencies: string[];
}

export function findAppFile(cwd: string): string | null {
  for (const name of APP_FILES) {
    const file = resolve(cwd, name);
    if (existsSync(file)) return file;
  }
  return null;
}

/** appkernel's own code folders (dist/core/app -> the package), as file URLs ending in '/' */
const PACKAGE_ROOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const OWN_FOLDER_URLS = [
  ...OWN_FOLDERS.map((folder) => pathToFileURL(join(PACKAGE_ROOT_DIR, folder)).href + '/'),
  pathToFileURL(join(PACKAGE_ROOT_DIR, 'index.ts')).href,
];
const HOOKS_URL = new URL('./app-module-hooks.js', import.meta.url);
/** the query parameter that gives each load its own instances of the app's modules (app-module-hooks.ts) */
const LOAD_PARAM = 'appkernel-load';

interface Loader {
  import: (specifier: string, parentURL: string) => Promise<Record<string, unknown>>;
  /** resolves once the hooks have reported every module of this load */
  flush(load: string): Promise<void>;
}

/**
 * How long an app file may take to load, in seconds (APPKERNEL_LOAD_TIMEOUT overrides it): a
 * top-level await that never settles (a connection never answered) fails the load, instead of
 * holding a reload forever or letting Node exit at start with code 13 and no word.
 */
const DEFAULT_LOAD_TIMEOUT_S = 10;

function loadTimeoutMs(): number {
  const text = process.env.APPKERNEL_LOAD_TIMEOUT;
  if (text === undefined || text === '') return DEFAULT_LOAD_TIMEOUT_S * 1000;
  const given = Number(text);
  if (!Number.isFinite(given) || given <= 0) {
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Invalid APPKERNEL_LOAD_TIMEOUT "${text}": expected a number of seconds (e.g. 30), or unset for ${DEFAULT_LOAD_TIMEOUT_S}.`,
    );
  }
  return given * 1000;
}

class LoadTimedOut extends Error {}

/** `loading`, or a LoadTimedOut after `ms`; the timer keeps the process alive meanwhile. */
function withinLoadTime<T>(loading: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LoadTimedOut()), ms);
  });
  return Promise.race([loading, late]).finally(() => clearTimeout(timer));
}

/** The running loads: their dependencies, the files their failed imports looked for, and the flush waiting for the hooks' answer. */
const loads = new Map<string, { dependencies: Set<string>; missing: Set<string>; flushed?: () => void }>();
let loader: Promise<Loader> | null = null;
let generation = 0;
const requireCache = createRequire(import.meta.url).cache;
/** what loads failed with (the causes of their APP_ERR_APP_LOAD) */
const loadFailures = new WeakSet<object>();

/**
 * Whether a load failed with `error`. Node 20 also reports the error of a CommonJS module
 * imported by the app as an unhandled rejection (nodejs/node#51603), while the load fails with it.
 */
export function isLoadFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && loadFailures.has(error);
}

/**
 * The module hooks are registered once per process: node:module has no way to
 * remove hooks, and tsx's unregister only deactivates its own, so hooks
 * registered at each reload would pile up and slow every later import.
 */
function appLoader(): Promise<Loader> {
  loader ??= makeAppLoader();
  return loader;
}

/** tsx is loaded with the first app file: the demo app and a process that only imports the server do without it. */
async function makeAppLoader(): Promise<Loader> {
  const { register } = await import('tsx/esm/api');
  const tsx = register({ namespace: `appkernel-${process.pid}` });
  const { port1, port2 } = new MessageChannel();
  // Registered after tsx's hooks, so they run first and see tsx's answers.
  registerHooks(HOOKS_URL, {
    data: { ownFolders: OWN_FOLDER_URLS, loadParam: LOAD_PARAM, port: port2 },
    transferList: [port2],
  });
  port1.on('message', (message: { load: string; path?: string; missing?: string[] }) => {
    const load = loads.get(message.load);
    if (message.path) load?.dependencies.add(message.path);
    else if (message.missing) for (const path of message.missing) load?.missing.add(path);
    else load?.flushed?.();
  });
  port1.unref();
  let flushing = 0;
  return {
    import: (specifier, parentURL) => tsx.import(specifier, parentURL),
    flush: (load) =>
      new Promise<void>((done) => {
        if (flushing++ === 0) port1.ref();
        loads.get(load)!.flushed = done;
        port1.postMessage({ load });
      }).finally(() => {
        if (--flushing === 0) port1.unref();
      }),
  };
}

/**
 * Loads an app file (TypeScript included, no build step) with fresh instances
 * of its local modules, so a reload sees the edited file and everything it imports.
 * The file must export the app as `app` or as its default export.
 * The app file and every local module it imports are added to `dependencies`,
 * also when the load fails; when an import names a local file that does not exist, the files
 * it would have loaded are added to `missing` (awaited-files.ts).
 * Fails with APP_ERR_APP_LOAD (missing file, syntax or runtime error, cause kept; a load
 * longer than the load timeout) or APP_ERR_APP_INVALID (nothing app-like exported).
 */
export async function loadApp(
  file: string | null,
  dependencies = new Set<string>(),
  missing = new Set<string>(),
): Promise<LoadedApp> {
  if (file === null) return { app: createDemoApp(), file: null, dependencies: [] };
  const path = resolve(file);
  dependencies.add(path);
  if (!existsSync(path)) throw new AppError('APP_ERR_APP_LOAD', `The app file "${file}" does not exist.`);
  if (statSync(path).isDirectory()) {
    throw new AppError(
      'APP_ERR_APP_LOAD',
      `The app file "${file}" is a folder: name the app file in it (${APP_FILES.join(', ')}), or run the command in that folder.`,
    );
  }
  const { import: importApp, flush } = await appLoader();
  for (const file of commonJsModulesOf(dirname(path))) delete requireCache[file];
  const load = String(++generation);
  loads.set(load, { dependencies, missing });
  let exported: Record<string, unknown>;
  const timeoutMs = loadTimeoutMs();
  try {
    exported = await withinLoadTime(
      importApp(`${pathToFileURL(path).href}?${LOAD_PARAM}=${load}`, import.meta.url),
      timeoutMs,
    );
  } catch (error) {
    if (error instanceof LoadTimedOut) {
      throw new AppLoadError(
        `The app file "${file}" did not finish loading within ${timeoutMs / 1000} s. Does a top-level await wait for` +
          ' something that never comes (a connection never answered, a promise nothing resolves)? Set APPKERNEL_LOAD_TIMEOUT (seconds) to wait longer.',
        null,
        '',
      );
    }
    if (typeof error === 'object' && error !== null) loadFailures.add(error);
    const report = describeLoadError(error);
    const at = report.location ? ` (${report.location.file}:${report.location.line}:${report.location.column})` : '';
    throw new AppLoadError(
      `The app file "${file}" failed to load: ${report.reason || String(error)}${at}`,
      report.location,
      formatLoadErrorReport(report),
      { cause: error },
    );
  } finally {
    await flush(load);
    loads.delete(load);
    // The app's CommonJS modules keep their paths, not their source maps.
    forgetMappedStacks();
    for (const file of commonJsModulesOf(dirname(path))) dependencies.add(file);
  }
  const app = pickApp(exported);
  if (!app) {
    throw new AppError(
      'APP_ERR_APP_INVALID',
      `The app file "${file}" must export an app made with createApp(), as "export const app = createApp()" or as its default export.`,
    );
  }
  return { app, file: path, dependencies: [...dependencies] };
}

/**
 * The app's own CommonJS modules now loaded: under its folder, outside node_modules. They are
 * cached by path, not by URL, so the load parameter gives them no fresh instance: loadApp forgets
 * them before each load (the running app keeps the instances it holds) and reports them after,
 * those a `.cjs` file requires included, which no module hook sees.
 */
function commonJsModulesOf(appDir: string): string[] {
  const inside = appDir.endsWith(sep) ? appDir : appDir + sep;
  return Object.keys(requireCache).filter(
    (file) => file.startsWith(inside) && !file.includes(`${sep}node_modules${sep}`) && !isOwnFile(file),
  );
}

function pickApp(exported: Record<string, unknown>): App | null {
  for (const candidate of [
    exported.app,
    exported.default,
    (exported.default as Record<string, unknown> | undefined)?.app,
  ]) {
    if (isApp(candidate)) return candidate;
  }
  return null;
}

/** Duck-typed: the app file may import appkernel through another module instance. */
function isApp(value: unknown): value is App {
  const v = value as App | null | undefined;
  return (
    !!v &&
    typeof v === 'object' &&
    typeof v.routes?.all === 'function' &&
    v.controllers instanceof Map &&
    Array.isArray(v.firewall)
  );
}
