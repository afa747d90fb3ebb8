import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FSWatcher } from 'chokidar';

export interface MissingFilesWatcher {
  /** waits for these files from now on (those given before are forgotten); resolves once watching */
  follow(files: Iterable<string>): Promise<void>;
  close(): Promise<void>;
}

/**
 * Calls `onChange` when a file that does not exist yet may have appeared. chokidar follows a missing
 * file only while its folder exists, so this watches each file's nearest existing folder, and there
 * only the folders on the way to the files and the files themselves (`lib/` made, then `lib/pricing.ts`).
 */
export function watchMissingFiles(onChange: () => void): MissingFilesWatcher {
  let watcher: FSWatcher | null = null;
  let following = '';
  let closed = false;
  let queue: Promise<void> = Promise.resolve();
  const follow = async (files: Iterable<string>) => {
    const paths = [...new Set([...files].map((file) => resolve(file)))].sort();
    if (closed || paths.join('\n') === following) return;
    following = paths.join('\n');
    await watcher?.close();
    watcher = null;
    if (paths.length === 0) return;
    const wanted = new Set<string>();
    const roots = new Set<string>();
    for (const path of paths) {
      wanted.add(path);
      let dir = dirname(path);
      while (!existsSync(dir) && dirname(dir) !== dir) {
        wanted.add(dir);
        dir = dirname(dir);
      }
      roots.add(dir);
      for (let up = dir; !wanted.has(up); up = dirname(up)) wanted.add(up);
    }
    const { watch } = await import('chokidar');
    const made = watch([...roots], { ignoreInitial: true, ignored: (path: string) => !wanted.has(resolve(path)) });
    watcher = made;
    made.on('all', () => onChange());
    await new Promise<void>((ready) => made.once('ready', () => ready()));
  };
  return {
    follow: (files) => {
      const given = [...files];
      return (queue = queue.then(() => follow(given)));
    },
    close: () =>
      (queue = queue.then(async () => {
        closed = true;
        await watcher?.close();
      })),
  };
}
