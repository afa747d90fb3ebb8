import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchText } from '../helpers/serve.js';
import type { FaultServer } from './fault-server.js';

/** The segment files of a store folder, oldest first. */
export function segmentFiles(dir: string, ext: 'log' | 'idx'): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(`.${ext}`))
    .sort()
    .map((f) => join(dir, f));
}

/** A record line of a segment index: where the profile of `token` lies in the log. */
export interface IndexLine {
  token: string;
  offset: number;
  length: number;
}

/** The record lines of one index file (the seal line left out). */
export function indexLines(idx: string): IndexLine[] {
  return readFileSync(idx, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown[])
    .filter((row) => row[0] !== 'seal')
    .map((row) => ({ token: row[0] as string, offset: row[7] as number, length: row[8] as number }));
}

/**
 * GETs `count` pages of the demo app, each profile on disk before the next request, so that each is a
 * record of its own (profiles queued together share a block); resolves to their tokens.
 */
export async function profiledRequests(t: FaultServer, count: number, path = '/hello/world'): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await fetchText(`${t.base}${path}`);
    if (r.status >= 500) throw new Error(`GET ${path} answered ${r.status}`);
    tokens.push(r.headers['x-debug-token']);
    await new Promise((resolve) => setImmediate(resolve));
    await t.server.storage!.flush();
  }
  return tokens;
}

/** Waits until a server in another process has the profile of `token` in an index of `store`. */
export async function waitUntilIndexed(store: string, token: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!segmentFiles(store, 'idx').some((idx) => indexLines(idx).some((line) => line.token === token))) {
    if (Date.now() > end) throw new Error(`profile ${token} never reached the index in ${store}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
