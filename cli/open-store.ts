import { existsSync } from 'node:fs';
import { isStoreUrl, openStorage } from '../core/profiler/storage/open-storage.js';
import type { ProfileStore } from '../core/profiler/storage/profile-storage.js';
import { terminalSafe } from '../render/text/terminal-safe.js';
import { resolveStoreLocation } from './options.js';
import type { Output } from './output.js';
import { findProjectDir } from './project-dir.js';

/**
 * The store a command reads or prunes: one a URL names, or a folder. A missing folder is an
 * empty store, said so on stderr, and is not created: a mistyped --store must not leave a new
 * folder behind. The default folder is the project's, found from a subfolder too (findProjectDir).
 */
export function openExistingStore(option: string | undefined, output: Output): Promise<ProfileStore> {
  const location = existingStoreLocation(option);
  if (isStoreUrl(location)) return openStorage(location);
  if (!existsSync(location))
    output.err(`No profile store at ${terminalSafe(location)} (app serve creates it with its first profile).\n`);
  return openStorage(location, { create: false });
}

/** Where openExistingStore looks: --store or the environment from the working directory, else the project's var/profiler. */
export function existingStoreLocation(option: string | undefined): string {
  const cwd = process.cwd();
  return resolveStoreLocation(option, cwd, findProjectDir(cwd));
}
