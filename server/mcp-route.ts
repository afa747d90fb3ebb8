import { readFileSync } from 'node:fs';
import type { App } from '../core/app/app.js';
import type { Request } from '../core/http/request.js';
import type { Response } from '../core/http/response.js';
import { combinedRoutes } from '../core/kernel/build-kernel.js';
import type { ProfileStore } from '../core/profiler/storage/profile-storage.js';
import { profilerRoutes } from '../web-profiler/web-profiler.js';
import { PROFILER_MCP_PATH } from '../core/profiler/profiler-urls.js';

export const MCP_PATH = PROFILER_MCP_PATH;

const version = (): string =>
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface McpRoute {
  answer(request: Request): Promise<Response>;
  /** ends the sessions and their event streams: before the server closes */
  close(): Promise<void>;
}

/**
 * The answerer of /_profiler/mcp for the app being served (`app()`: the one loaded now, across
 * reloads), its sessions kept across reloads; the MCP SDK is loaded at the first request, not at start.
 */
export function mcpRoute(app: () => App, storage: ProfileStore): McpRoute {
  let endpoint: Promise<import('../mcp/http-endpoint.js').McpHttpEndpoint> | null = null;
  const open = () =>
    (endpoint ??= import('../mcp/http-endpoint.js').then(
      ({ McpHttpEndpoint }) =>
        new McpHttpEndpoint(
          { storage, routes: async () => combinedRoutes(app(), [{ routes: profilerRoutes() }]) },
          version(),
        ),
    ));
  return {
    answer: async (request) => (await open()).answer(request),
    close: async () => {
      if (endpoint !== null) await (await endpoint).close();
    },
  };
}
