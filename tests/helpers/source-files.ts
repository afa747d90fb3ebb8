import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The folders of the package's own code, top layer first (ARCHITECTURE.md); index.ts beside them. */
export const SOURCE_FOLDERS = [
  'cli',
  'server',
  'mcp',
  'web-profiler',
  'panels',
  'render',
  'snapshots',
  'core',
] as const;

/** Every .ts file under `dir`, relative to the working folder (the checkout). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Every relative module a file names: `import`, `import type`, `export … from`, a bare `import '…'`,
 * `import('…')` (a lazy load, or a type written as `import('…').T`), and a worker's
 * `new URL('…', import.meta.url)`: a type-only import is an import too.
 */
export function importsOf(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\bnew URL\(\s*)'(\.[^']+)'/g)].map((match) => match[1]);
}
