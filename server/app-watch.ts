import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { AppLoadError } from '../core/errors.js';
import { APP_FILES, findAppFile, loadApp, type LoadedApp } from './load-app.js';
import { describeShadowedRoute, findShadowedRoutes } from '../core/app/route-checks.js';
import { terminalSafe, terminalSafeBlock } from '../core/terminal-safe.js';
import type { ReloadFailureView } from '../web-profiler/views/reload-banner.js';
import { watchMissingFiles, type MissingFilesWatcher } from './missing-files-watcher.js';

export interface AppWatchOptions {
  /** the app file; null serves the embedded demo app */
  appFile: string | null;
  /** with no app file: the folder where one may appear (APP_FILES), served as soon as it does */
  appDir?: string;
  root: string;
  watch: boolean;
  print: (line: string) => void;
}

/**
 * The app a dev server serves, loaded and, in watch mode, loaded again when its file or a module it
 * imports changes, or when a file a failed import looked for appears. `use` takes each version that
 * loads (it makes the kernel); a version that fails to load leaves the last good one serving, and
 * `failure` says why until a load succeeds.
 */
export class AppWatch {
  #appFile: string | null;
  readonly #lookingForAppFile: boolean;
  readonly #watching: boolean;
  /** the app file and every local module a load imported, broken loads included */
  readonly #watched: Set<string>;
  /** what each watched file held when the last load read it */
  #seen = new Map<string, string>();
  /** the files the last load's failed imports looked for: one of them appearing reloads */
  #awaited = new Set<string>();
  #loaded: LoadedApp | null = null;
  #failure: ReloadFailureView | null = null;
  #stopping = false;
  #reloading: Promise<boolean> = Promise.resolve(true);
  #checkQueued = false;
  #recheck: NodeJS.Timeout | undefined;
  #watcher: FSWatcher | null = null;
  /** with no app file yet: watches its folder for one */
  #appearing: FSWatcher | null = null;
  #missingFiles: MissingFilesWatcher | null = null;

  constructor(
    private readonly options: AppWatchOptions,
    private readonly use: (next: LoadedApp) => void,
  ) {
    this.#appFile = options.appFile;
    this.#lookingForAppFile = this.#appFile === null && options.appDir !== undefined;
    this.#watching = options.watch && (this.#appFile !== null || this.#lookingForAppFile);
    this.#watched = new Set(this.#appFile ? [resolve(this.#appFile)] : []);
  }

  /** The version serving now. */
  get loaded(): LoadedApp {
    if (this.#loaded === null) throw new Error('The app is not loaded yet.');
    return this.#loaded;
  }

  /** While the last reload failed: its message and place (a banner on every page, a header on every response). */
  get failure(): ReloadFailureView | null {
    return this.#failure;
  }

  /** Loads the app the first time; a failure throws (there is no good version to keep serving). */
  async loadFirst(): Promise<LoadedApp> {
    const loaded = await this.#load();
    this.use(loaded);
    this.#loaded = loaded;
    this.#warnShadowed(loaded);
    return loaded;
  }

  /** In watch mode, follows the files the first load read; an edit made meanwhile is caught up with. */
  async start(): Promise<void> {
    if (!this.#watching) return;
    // chokidar is loaded by a server that watches, not by every one that imports the dev server.
    const { watch } = await import('chokidar');
    if (this.#stopping) return;
    const watcher = (this.#watcher = watch([...this.#watched], { ignoreInitial: true }));
    this.#missingFiles = watchMissingFiles(() => void this.#check());
    await this.#missingFiles.follow(this.#awaited);
    if (this.#lookingForAppFile) {
      // The folder itself, for its app file names only: a path that does not exist yet is not reliably watched.
      const dir = resolve(this.options.appDir!);
      const candidates = new Set<string>(APP_FILES.map((name) => resolve(dir, name)));
      const appearing = (this.#appearing = watch(dir, {
        ignoreInitial: true,
        depth: 0,
        ignored: (path: string) => resolve(path) !== dir && !candidates.has(resolve(path)),
      }));
      appearing.on('all', () => void this.#check());
      await new Promise<void>((ready) => appearing.once('ready', () => ready()));
    }
    watcher.on('all', (event, path) => {
      // chokidar stops following a file once it is deleted: followed again, it is seen when it comes back.
      if (event === 'unlink' && !this.#stopping) watcher.add(path);
      void this.#check();
      // chokidar drops a second change of a file within 50 ms of the first, and nothing follows it.
      clearTimeout(this.#recheck);
      this.#recheck = setTimeout(() => void this.#check(), 75);
    });
    // chokidar emits no 'ready' for an empty list (no app file yet)
    if (this.#watched.size > 0) await new Promise<void>((ready) => watcher.once('ready', () => ready()));
    void this.#check(); // an edit made before the watcher was ready
  }

  /** Reloads now; resolves false when the new version failed to load (the old keeps serving). */
  reload(): Promise<boolean> {
    return (this.#reloading = this.#reloading.then(() => this.#reload()).then((ok) => this.#settle(ok)));
  }

  /** Stops watching; a reload under way finishes, and no other begins. */
  async close(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#recheck);
    await this.#watcher?.close();
    await this.#appearing?.close();
    await this.#missingFiles?.close();
  }

  async #load(): Promise<LoadedApp> {
    if (!this.#watching) return loadApp(this.#appFile);
    const before = await fingerprints(this.#watched);
    const missing = new Set<string>();
    try {
      return await loadApp(this.#appFile, this.#watched, missing);
    } finally {
      const missed = [...missing].map((file) => [file, 'missing'] as const);
      this.#seen = new Map([
        ...missed,
        ...(await fingerprints([...this.#watched].filter((file) => !before.has(file)))),
        ...before,
      ]);
      this.#awaited = missing;
    }
  }

  async #reload(changedFiles: readonly string[] = []): Promise<boolean> {
    const known = this.#watched.size;
    const appFile = this.#appFile;
    try {
      const next = await this.#load();
      this.use(next);
      this.#loaded = next;
      this.#failure = null;
      const routes = next.app.routes.size;
      const changes =
        changedFiles.length > 0
          ? ` Changed: ${changedFiles.map((file) => relative(this.options.root, file) || file).join(', ')}.`
          : '';
      const shownFile = appFile ? relative(process.cwd(), resolve(appFile)) || appFile : String(appFile);
      this.options.print(
        `Reloaded ${terminalSafe(shownFile)} (${routes} route${routes === 1 ? '' : 's'}).${terminalSafe(changes)}`,
      );
      this.#warnShadowed(next);
      return true;
    } catch (error) {
      const location = error instanceof AppLoadError && error.location ? error.location : null;
      this.#failure = {
        message: (error as Error).message,
        location: location ? `${location.file}:${location.line}:${location.column}` : String(appFile),
      };
      // The message on one line, its control characters shown; the code frame and stack below it, lines kept.
      const details = error instanceof AppLoadError && error.details ? `\n${terminalSafeBlock(error.details)}` : '';
      this.options.print(
        `Reload failed, the last good app keeps serving: ${terminalSafe(String((error as Error)?.message ?? error))}${details}`,
      );
      return false;
    } finally {
      if (this.#watched.size > known && !this.#stopping) this.#watcher?.add([...this.#watched].slice(known));
      if (!this.#stopping) await this.#missingFiles?.follow(this.#awaited);
    }
  }

  /** The watched files that differ from what the last load read, and an app file that appeared. */
  async #changed(): Promise<string[]> {
    const files: string[] = [];
    if (this.#lookingForAppFile && this.#appFile === null) {
      this.#appFile = findAppFile(this.options.appDir!);
      if (this.#appFile !== null) {
        this.#watched.add(this.#appFile);
        this.#watcher?.add(this.#appFile);
        files.push(this.#appFile);
      }
    }
    for (const [file, fingerprint] of await fingerprints(this.#seen.keys()))
      if (this.#seen.get(file) !== fingerprint) files.push(file);
    return files;
  }

  /** Reloads until the files are the ones the last load read: an edit made during a reload is not lost. */
  async #settle(ok: boolean): Promise<boolean> {
    while (!this.#stopping) {
      const files = await this.#changed();
      if (files.length === 0) break;
      ok = await this.#reload(files);
    }
    return ok;
  }

  #check(): Promise<boolean> {
    if (!this.#checkQueued) {
      this.#checkQueued = true;
      this.#reloading = this.#reloading.then((ok) => {
        this.#checkQueued = false;
        return this.#settle(ok);
      });
    }
    return this.#reloading;
  }

  #warnShadowed(next: LoadedApp): void {
    for (const shadowed of findShadowedRoutes(next.app.routes))
      this.options.print(`warning: ${describeShadowedRoute(shadowed)}`);
  }
}

/** Each file's modification time and content hash ("missing" when unreadable). */
async function fingerprints(files: Iterable<string>): Promise<Map<string, string>> {
  return new Map(
    await Promise.all(
      [...files].map(async (file) => {
        try {
          const [stats, content] = await Promise.all([stat(file), readFile(file)]);
          return [file, `${stats.mtimeMs} ${createHash('sha1').update(content).digest('hex')}`] as const;
        } catch {
          return [file, 'missing'] as const;
        }
      }),
    ),
  );
}
