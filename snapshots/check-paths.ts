import { createHash } from 'node:crypto';
import { resolve, sep } from 'node:path';
import type { Normaliser } from './normalise.js';
import { foldVendorFrames } from './fold-vendor-frames.js';
import { applyNormalisers, defaultNormalisers, findTokens } from './normalise.js';
import { outline } from './outline.js';
import { checkSnapshotFile, SNAPSHOT_EXTENSION, type SnapshotState } from './snapshot-file.js';

export interface FetchedPage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface CheckedPath {
  path: string;
  state: SnapshotState;
  /** the snapshot file, absolute */
  file: string;
  diff?: string;
}

export interface CheckSnapshotsOptions {
  dir: string;
  update: boolean;
  ci: boolean;
  normalisers?: Normaliser[];
  /** the app root, shown as `<ROOT>` (default: the working directory) */
  root?: string;
  /** the method every path is requested with, which names the files of methods but GET (default GET) */
  method?: string;
}

/**
 * `/` → `index`, `/hello/world` → `hello__world`. Other characters become `_`, and then a short
 * hash of the path keeps distinct paths apart (`/a?b` and `/a_b`); the name never holds a `/` or
 * starts with a dot, so it cannot leave the snapshot folder. A method other than GET comes first,
 * `POST@login`: a path never makes an `@`, so no GET page takes that name.
 */
export function snapshotFileName(path: string, method = 'GET'): string {
  const prefix = method === 'GET' ? '' : `${method.replace(/[^A-Za-z0-9-]/g, '_')}@`;
  const trimmed = path.replace(/^\/+/, '');
  if (trimmed === '') return `${prefix}index${SNAPSHOT_EXTENSION}`;
  const plain = trimmed.split('/').join('__');
  let name = plain
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 100);
  if (name !== plain) name += `-${createHash('sha1').update(path).digest('hex').slice(0, 8)}`;
  return `${prefix}${name}${SNAPSHOT_EXTENSION}`;
}

/**
 * What a snapshot of a response holds: the status, where it redirects, then the body's outline (or its
 * lines, when not HTML), with the frames of appkernel, packages and Node folded on error pages.
 */
export function responseOutline(page: FetchedPage, normalisers: readonly Normaliser[]): string {
  const header = (name: string) => Object.entries(page.headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const lines = [`status ${page.status}`];
  const location = header('location');
  if (location) lines.push(`location ${applyNormalisers(location, normalisers)}`);
  const type = header('content-type') ?? '';
  const isHtml = /html/i.test(type) || (!type && /^\s*</.test(page.body));
  const body = isHtml
    ? outline(foldVendorFrames(page.body), { normalisers: [...normalisers] })
    : page.body
        .split(/\r?\n/)
        .map((l) => applyNormalisers(l.trimEnd(), normalisers))
        .join('\n')
        .replace(/\n+$/, '');
  return `${lines.join('\n')}\n${body}${body && !body.endsWith('\n') ? '\n' : ''}`;
}

/**
 * Requests each path through `fetch` and checks its outline against `<dir>/<file name>`: written
 * when new (missing instead with `ci`), rewritten with `update`, failed with a diff otherwise.
 * `ok` is false when any path failed or is missing.
 */
export async function checkSnapshots(
  fetch: (path: string) => Promise<FetchedPage>,
  paths: readonly string[],
  options: CheckSnapshotsOptions,
): Promise<{ ok: boolean; results: CheckedPath[] }> {
  const dir = resolve(options.dir);
  const method = options.method ?? 'GET';
  const results: CheckedPath[] = [];
  for (const path of paths) {
    const file = resolve(dir, snapshotFileName(path, method));
    if (!file.startsWith(`${dir}${sep}`)) throw new TypeError(`Snapshot path ${JSON.stringify(path)} leaves ${dir}`);
    const page = await fetch(path);
    const normalisers =
      options.normalisers ?? defaultNormalisers({ root: options.root ?? process.cwd(), tokens: tokensOf(page) });
    const check = checkSnapshotFile(file, responseOutline(page, normalisers), {
      update: options.update,
      ci: options.ci,
      label: `${method} ${path}`,
    });
    results.push({ path, file, ...check });
  }
  return { ok: results.every((r) => r.state !== 'failed' && r.state !== 'missing'), results };
}

/** The page's own tokens: its X-Debug-Token header and those its body names where only a token can be. */
function tokensOf(page: FetchedPage): string[] {
  const header = Object.entries(page.headers).find(([k]) => k.toLowerCase() === 'x-debug-token')?.[1];
  return [...(header ? [header] : []), ...findTokens(page.body)];
}
