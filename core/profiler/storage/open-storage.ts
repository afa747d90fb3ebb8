import type { FileStorageOptions } from './file-storage.js';
import type { PostgresStorageOptions } from './postgres-storage.js';
import { displayUrl } from './postgres-errors.js';
import type { ProfileStore, ServedStore, StoreServing } from './profile-storage.js';

export type StorageOptions = Omit<FileStorageOptions, 'dir'> & Omit<PostgresStorageOptions, 'url'>;

/** A backend: the store locations it takes, how it shows one, and how it opens one (loaded only when asked for). */
interface Backend {
  accepts(location: string): boolean;
  /** whether its locations are URLs, taken as given; else they are folders, resolved from where a command runs */
  url: boolean;
  /** the location as a page or a terminal may show it (a database URL without its password) */
  shown(location: string): string;
  open(location: string, options: StorageOptions): Promise<ProfileStore & StoreServing>;
}

const DATABASE_URL = /^postgres(ql)?:\/\//i;

/** The backends by the form of the location, first match wins: a database URL, else a folder. */
const BACKENDS: readonly Backend[] = [
  {
    accepts: (location) => DATABASE_URL.test(location),
    url: true,
    shown(url) {
      try {
        return displayUrl(new URL(url));
      } catch {
        return 'an invalid database URL';
      }
    },
    async open(url, { create: _create, compressInWorker: _compress, ...options }) {
      const { openPostgresStorage } = await import('./postgres-storage.js');
      return openPostgresStorage({ ...options, url });
    },
  },
  {
    accepts: () => true,
    url: false,
    shown: (dir) => dir,
    async open(dir, { instance: _instance, serverName: _serverName, ...options }) {
      const { openFileStorage } = await import('./file-storage.js');
      return openFileStorage({ ...options, dir });
    },
  },
];

/** Whether `location` is the URL of a store a backend takes (postgres://…), as opposed to a store folder. */
export function isStoreUrl(location: string): boolean {
  return backendOf(location).url;
}

/** The store at `location` as a page or a terminal may show it: a database URL without its password. */
export function shownLocation(location: string): string {
  return backendOf(location).shown(location);
}

function backendOf(location: string): Backend {
  return BACKENDS.find((backend) => backend.accepts(location))!;
}

/**
 * The profile store at `location`: a PostgreSQL database (postgres://user:password@host:port/db),
 * shared by every server pointed at it, or else the embedded store in that folder. Only the
 * store asked for is loaded: a command reading a folder never loads the PostgreSQL client.
 */
export function openStorage(location: string, options: StorageOptions = {}): Promise<ProfileStore> {
  return backendOf(location).open(location, options);
}

/** The store at `location` as openStorage() opens it, with what a server writing it needs besides (StoreServing). */
export async function serveStorage(location: string, options: StorageOptions = {}): Promise<ServedStore> {
  const store = await backendOf(location).open(location, options);
  return { store, serving: store };
}
