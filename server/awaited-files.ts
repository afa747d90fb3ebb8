import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What an import without its extension may name, in the order tsx and node try them. */
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];
/** An extension a TypeScript import may write for its .ts file (`./lib/pricing.js` is `./lib/pricing.ts`). */
const SCRIPT_EXTENSION = /\.(?:[mc]?js|jsx)$/;

/**
 * The files a relative, absolute or file: import `specifier` of the module at `parentPath` would load
 * once one of them exists: the path as written, with each extension, and the folder's index with each.
 * A package name gives none (it comes from node_modules, which the app does not write).
 */
export function awaitedFiles(specifier: string, parentPath: string): string[] {
  const path = localPath(specifier.replace(/[?#].*$/, ''), parentPath);
  if (path === null) return [];
  const stem = path.replace(SCRIPT_EXTENSION, '');
  return [
    ...new Set([
      path,
      ...EXTENSIONS.map((extension) => stem + extension),
      ...EXTENSIONS.map((extension) => resolve(path, `index${extension}`)),
    ]),
  ];
}

function localPath(specifier: string, parentPath: string): string | null {
  if (specifier.startsWith('file:')) {
    try {
      return fileURLToPath(specifier);
    } catch {
      return null;
    }
  }
  if (specifier.startsWith('/')) return resolve(decode(specifier));
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
    return resolve(dirname(parentPath), decode(specifier));
  }
  return null;
}

function decode(specifier: string): string {
  try {
    return decodeURIComponent(specifier);
  } catch {
    return specifier;
  }
}
