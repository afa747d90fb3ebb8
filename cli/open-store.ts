import { existsSync } from 'node:fs';
import { isDatabaseUrl, openStorage } from '../core/profiler/storage/open-storage.js';
import type { ProfileStorage } from '../core/profiler/storage/profile-storage.js';
import { terminalSafe } from '../render/text/terminal-safe.js';
import { resolveStoreLocation } from './options.js';
import type { Output } from './output.js';

/**
 * The store a command reads or prunes: a PostgreSQL database, or a folder. A missing folder is an
 * empty store, said so on stderr, and is not created: a mistyped --store must not leave a new
 * folder behind.
 */
export function openExistingStore(option: string | undefined, output: Output): Promise<ProfileStorage> {
  const location = resolveStoreLocation(option, process.cwd());
  if (isDatabaseUrl(location)) return openStorage(location);
  if (!existsSync(location)) output.err(`No profile store at ${terminalSafe(location)} (app serve creates it with its first profile).\n`);
  return openStorage(location, { create: false });
}
