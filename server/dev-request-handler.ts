import type { RequestHandler } from '../core/http/node-adapter.js';
import type { Request } from '../core/http/request.js';
import { Response } from '../core/http/response.js';
import type { Kernel } from '../core/kernel/kernel.js';
import type { ReloadFailureView } from '../web-profiler/views/reload-banner.js';
import { MCP_PATH } from './mcp-route.js';
import { markReloadFailure } from './reload-failure.js';
import { thenMaybe } from '../core/maybe-promise.js';

const FAVICON = '/favicon.ico';

export interface DevRequestHandlerOptions {
  /** the last reload's failure, null when it loaded */
  failure(): ReloadFailureView | null;
  /** whether a GET of /favicon.ico may be answered 404 here: no public file and no route of the app's for it */
  quietFavicon(): boolean;
  /** null, or a promise to wait for before the request is handled: the profile store is behind (ProfileStorage.whenRoom) */
  room?(): Promise<void> | null;
  /** the answerer of /_profiler/mcp (server/mcp-route.ts); absent when the profiler is off */
  mcp?(request: Request): Promise<Response>;
}

/**
 * The dev server's handler around a kernel: a /favicon.ico nothing serves is a plain 404 (browsers ask
 * every site for it: no ERROR record, no profile), and while a reload has failed every answer says so.
 */
export function devRequestHandler(kernel: Kernel, options: DevRequestHandlerOptions): RequestHandler {
  const quiet = new WeakSet<object>();
  const marked = (request: Request, response: Response): Response => {
    const failure = options.failure();
    if (failure) markReloadFailure(response, failure);
    return response;
  };
  const respond = (request: Request): Response | Promise<Response> => {
    const room = options.room?.();
    if (room) return room.then(() => answer(request));
    return answer(request);
  };
  const answer = (request: Request): Response | Promise<Response> => {
    if (options.mcp && request.path === MCP_PATH) return options.mcp(request);
    if (request.path === FAVICON && (request.method === 'GET' || request.method === 'HEAD') && options.quietFavicon()) {
      quiet.add(request);
      return marked(request, Response.text('Not Found: no public/favicon.ico.', 404));
    }
    const response = kernel.respond(request);
    return thenMaybe(response, (made) => marked(request, made));
  };
  return {
    handle: async (request) => respond(request),
    respond,
    terminate: (request, response) => (quiet.has(request) ? Promise.resolve() : kernel.terminate(request, response)),
    terminates: () => kernel.terminates(),
  };
}
