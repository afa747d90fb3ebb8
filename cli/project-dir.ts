import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { APP_FILES } from '../core/app/app-files.js';

const PROJECT_MARKERS = [...APP_FILES, 'package.json'];

/**
 * The project the working directory is in: the nearest folder, walking up from `cwd`, that holds an
 * app file (app.config.ts…) or a package.json; `cwd` itself when none does. Commands that read the
 * store look for its default folder (var/profiler) there, so they find it from a subfolder.
 */
export function findProjectDir(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (PROJECT_MARKERS.some((name) => existsSync(join(dir, name)))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}
