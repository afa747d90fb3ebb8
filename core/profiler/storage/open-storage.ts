import type { FileStorageOptions } from './file-storage.js';
import type { PostgresStorageOptions } from './postgres-storage.js';
import type { ProfileStorage } from './profile-storage.js';

export type StorageOptions = Omit<FileStorageOptions, 'dir'> & Omit<PostgresStorageOptions, 'url'>;

/** A postgres:// or postgresql:// URL, as opposed to a store folder. */
export function isDatabaseUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * The profile store at `location`: a PostgreSQL database (postgres://user:password@host:port/db),
 * shared by every server pointed at it, or else the embedded store in that folder. Only the
 * store asked for is loaded: a command reading a folder never loads the PostgreSQL client.
 */
export async function openStorage(location: string, options: StorageOptions = {}): Promise<ProfileStorage> {
  if (isDatabaseUrl(location)) {
    const { create: _create, compressInWorker: _compress, ...rest } = options;
    const { openPostgresStorage } = await import('./postgres-storage.js');
    return openPostgresStorage({ ...rest, url: location });
  }
  const { instance: _instance, ...rest } = options;
  const { openFileStorage } = await import('./file-storage.js');
  return openFileStorage({ ...rest, dir: location });
}
