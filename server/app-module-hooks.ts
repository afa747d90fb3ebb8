/**
 * Node module hooks that load-app.ts registers once, right after tsx's (so they
 * see tsx's answers). An app file is loaded in tsx's namespace, with a query
 * parameter naming the load that each local module it imports inherits: a
 * reload gets fresh instances of the app's own files, and reports each of them
 * to load-app.ts (for watch mode). The namespace only covers the app's own files:
 * - a module in node_modules or in appkernel's own folders leaves the namespace,
 *   so the app shares appkernel's one instance (`instanceof Response` holds) and
 *   no package is loaded twice; any other file, under appkernel's checkout too
 *   (an app.config.ts beside its package.json), is the app's;
 * - a local TypeScript file that tsx would run as CommonJS (a folder without
 *   "type": "module") runs as an ES module instead: tsx's CommonJS path breaks
 *   its imports of local .ts files and shows the compiled code in stack traces.
 */

import type { MessagePort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { awaitedFiles } from './awaited-files.js';

const NAMESPACE_PARAM = 'tsx-namespace';
/** tsx marks a CommonJS module loaded from ESM like this: `/a.ts%3Fnamespace=x?tsx-commonjs-virtual-query=1` */
const COMMONJS_MARK = 'tsx-commonjs-virtual-query';

interface Resolved {
  url: string;
  format?: string | null;
  [key: string]: unknown;
}
type NextResolve = (specifier: string, context: unknown) => Promise<Resolved>;

/** file URLs (ending in '/') of the folders holding appkernel's own code */
let ownFolders: string[] = [];
let loadParam = '';
/**
 * to load-app.ts: `{ load, path }` for each local module of a load, `{ load, missing }` for the files
 * an import of a local module that does not exist would have loaded; `{ load }` answers its flush
 */
let port: MessagePort;

export function initialize(data: { ownFolders: string[]; loadParam: string; port: MessagePort }): void {
  ({ ownFolders, loadParam, port } = data);
  // Messages are delivered in order: every module of the load was reported before this answer.
  port.on('message', ({ load }: { load: string }) => port.postMessage({ load }));
}

export async function resolve(
  specifier: string,
  context: { parentURL?: string },
  next: NextResolve,
): Promise<Resolved> {
  const parentURL = context.parentURL;
  let resolved: Resolved;
  try {
    resolved = await next(specifier, context);
  } catch (error) {
    reportMissing(specifier, parentURL, error);
    throw error;
  }
  if (!resolved.url.startsWith('file:')) return resolved;
  const url = new URL(resolved.url);
  if (!url.searchParams.has(NAMESPACE_PARAM)) return resolved;
  if (url.pathname.includes('/node_modules/') || ownFolders.some((folder) => url.href.startsWith(folder))) {
    url.searchParams.delete(NAMESPACE_PARAM);
    url.searchParams.delete(COMMONJS_MARK);
    url.searchParams.delete(loadParam);
    url.pathname = url.pathname.split('%3F')[0];
    return { ...resolved, url: url.href };
  }
  const path = url.pathname.split('%3F')[0];
  const load =
    url.searchParams.get(loadParam) ??
    (parentURL?.startsWith('file:') ? new URL(parentURL).searchParams.get(loadParam) : null);
  if (load) {
    url.searchParams.set(loadParam, load);
    port.postMessage({ load, path: fileURLToPath(`file://${path}`) });
  }
  if (!/\.tsx?$/.test(path) || resolved.format === 'module') return { ...resolved, url: url.href };
  url.pathname = path;
  url.searchParams.delete(COMMONJS_MARK);
  return { ...resolved, url: url.href, format: 'module' };
}

/** A local module not found by a module of a load: the files that would have been it (watch mode waits for them). */
function reportMissing(specifier: string, parentURL: string | undefined, error: unknown): void {
  if ((error as { code?: string } | null)?.code !== 'ERR_MODULE_NOT_FOUND' || !parentURL?.startsWith('file:')) return;
  const parent = new URL(parentURL);
  const load = parent.searchParams.get(loadParam);
  if (!load) return;
  const missing = awaitedFiles(specifier, fileURLToPath(`file://${parent.pathname.split('%3F')[0]}`));
  if (missing.length > 0) port.postMessage({ load, missing });
}
