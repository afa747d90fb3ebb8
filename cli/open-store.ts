import { existsSync } from 'node:fs';
import { openFileStorage, type FileStorage } from '../core/profiler/storage/file-storage.js';
import { terminalSafe } from '../render/text/terminal-safe.js';
import { resolveStoreDir } from './options.js';
import type { Output } from './output.js';

/**
 * The store a command reads or prunes. A missing folder is an empty store, said so on stderr,
 * and is not created: a mistyped --store must not leave a new folder behind.
 */
export function openExistingStore(option: string | undefined, output: Output): Promise<FileStorage> {
  const dir = resolveStoreDir(option, process.cwd());
  if (!existsSync(dir)) output.err(`No profile store at ${terminalSafe(dir)} (app serve creates it with its first profile).\n`);
  return openFileStorage({ dir, create: false });
}
