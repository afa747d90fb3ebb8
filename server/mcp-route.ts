import { readFileSync } from 'node:fs';
import type { App } from '../core/app/app.js';
import type { Request } from '../core/http/request.js';
import type { Response } from '../core/http/response.js';
import { combinedRoutes } from '../core/kernel/build-kernel.js';
import type { ProfileStorage } from '../core/profiler/storage/profile-storage.js';
import { profilerRoutes } from '../web-profiler/web-profiler.js';

export const MCP_PATH = '/_profiler/mcp';

const version = (): string => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The answerer of /_profiler/mcp for the app being served; the MCP SDK is loaded at its first request, not at start. */
export function mcpRoute(app: App, storage: ProfileStorage): (request: Request) => Promise<Response> {
  return async (request) => {
    const { answerMcpRequest } = await import('../mcp/http-endpoint.js');
    return answerMcpRequest(request, { storage, routes: async () => combinedRoutes(app, [{ routes: profilerRoutes() }]) }, version());
  };
}
