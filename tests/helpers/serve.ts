import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from 'node:http';
import { request } from 'undici';
import { startDevServer, type DevServer } from '../../server/dev-server.js';

export interface TestServer {
  server: DevServer;
  base: string;
  /** host:port, as a request's Host header names this server */
  host: string;
  storeDir: string;
  stop(): Promise<void>;
}

/** A real dev server on 127.0.0.1 and a free port, with a temporary profile store. */
export async function serveForTest(
  options: {
    appFile?: string | null;
    debug?: boolean;
    root?: string;
    allowedHosts?: string[];
    editor?: string;
    slowQueryMs?: number;
    queryStacks?: number;
    store?: string;
  } = {},
): Promise<TestServer> {
  const storeDir = options.store ?? mkdtempSync(join(tmpdir(), 'appkernel-test-store-'));
  const server = await startDevServer({
    port: 0,
    host: '127.0.0.1',
    allowedHosts: options.allowedHosts,
    appFile: options.appFile ?? null,
    root: options.root ?? process.cwd(),
    storeDir,
    debug: options.debug ?? true,
    watch: false,
    logLevel: 'EMERGENCY',
    print: () => {},
    editor: options.editor ?? null,
    ...(options.slowQueryMs === undefined ? {} : { slowQueryMs: options.slowQueryMs }),
    ...(options.queryStacks === undefined ? {} : { queryStacks: options.queryStacks }),
  });
  return {
    server,
    base: server.url,
    host: new URL(server.url).host,
    storeDir,
    async stop() {
      await server.close();
      if (options.store === undefined) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/**
 * serveForTest for an app given as its source: written as `file` (app.config.ts, app.config.mjs) into a
 * temporary folder, the app's root, which stop() deletes.
 */
export async function serveAppSource(
  file: string,
  source: string,
  options: Omit<Parameters<typeof serveForTest>[0], 'appFile' | 'root'> = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-app-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  writeFileSync(join(dir, file), source);
  const t = await serveForTest({ ...options, appFile: join(dir, file), root: dir }).catch((error: unknown) => {
    remove();
    throw error;
  });
  return {
    ...t,
    async stop() {
      await t.stop();
      remove();
    },
  };
}

export interface Fetched {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export async function fetchText(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Fetched> {
  const response = await request(url, {
    method: (init.method ?? 'GET') as 'GET',
    headers: init.headers,
    body: init.body,
  });
  const body = await response.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: response.statusCode, headers, body };
}

/** GET with the request target sent byte for byte (undici and fetch resolve `..` segments first). */
export function fetchRawPath(base: string, path: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    get({ host: hostname, port, path, headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(response.headers))
          if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: response.statusCode ?? 0, headers: flat, body });
      });
    }).on('error', reject);
  });
}

/** Waits until the profile of `token` is readable through the JSON endpoint. */
export async function fetchProfileJson(base: string, token: string): Promise<any> {
  for (let i = 0; i < 50; i++) {
    const r = await fetchText(`${base}/_profiler/${token}.json`);
    if (r.status === 200) return JSON.parse(r.body);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`profile ${token} never became readable`);
}
