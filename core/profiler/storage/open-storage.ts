import type { FileStorageOptions } from './file-storage.js';
import type { PostgresStorageOptions } from './postgres-storage.js';
import type { ServedStore } from './profile-storage.js';

export type StorageOptions = Omit<FileStorageOptions, 'dir'> & Omit<PostgresStorageOptions, 'url'>;

/** A backend: the store locations it takes, and how it opens one (loaded only when asked for). */
interface Backend {
  accepts(location: string): boolean;
  open(location: string, options: StorageOptions): Promise<ServedStore>;
}

const DATABASE_URL = /^postgres(ql)?:\/\//i;

/** The backends by the form of the location, first match wins: a database URL, else a folder. */
const BACKENDS: readonly Backend[] = [
  {
    accepts: (location) => DATABASE_URL.test(location),
    async open(url, { create: _create, compressInWorker: _compress, ...options }) {
      const { openPostgresStorage } = await import('./postgres-storage.js');
      return openPostgresStorage({ ...options, url });
    },
  },
  {
    accepts: () => true,
    async open(dir, { instance: _instance, ...options }) {
      const { openFileStorage } = await import('./file-storage.js');
      return openFileStorage({ ...options, dir });
    },
  },
];

/** A postgres:// or postgresql:// URL, as opposed to a store folder. */
export function isDatabaseUrl(location: string): boolean {
  return DATABASE_URL.test(location);
}

/**
 * The profile store at `location`: a PostgreSQL database (postgres://user:password@host:port/db),
 * shared by every server pointed at it, or else the embedded store in that folder. Only the
 * store asked for is loaded: a command reading a folder never loads the PostgreSQL client.
 */
export function openStorage(location: string, options: StorageOptions = {}): Promise<ServedStore> {
  return BACKENDS.find((backend) => backend.accepts(location))!.open(location, options);
}
