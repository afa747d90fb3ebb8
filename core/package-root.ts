import { readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** appkernel's own folder (the one holding its package.json), wherever it is installed or checked out. */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/**
 * The folders of appkernel's own code, compiled and source. Everything else under the package
 * root (an app.config.ts in a checkout, a folder of examples) is an app's file like any other.
 */
export const OWN_FOLDERS = [
  'dist',
  'cli',
  'server',
  'web-profiler',
  'core',
  'render',
  'snapshots',
  'scripts',
  'node_modules',
] as const;

/** Whether `file` (an absolute path) is appkernel's own code rather than an app's. */
export function isOwnFile(file: string): boolean {
  return (
    file === join(PACKAGE_ROOT, 'index.ts') ||
    OWN_FOLDERS.some((folder) => file.startsWith(join(PACKAGE_ROOT, folder) + sep))
  );
}

function findPackageRoot(from: string): string {
  let dir = from;
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'appkernel') return dir;
    } catch {
      /* keep walking up */
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return from;
}
