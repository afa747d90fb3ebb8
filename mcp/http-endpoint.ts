import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { parseAuthority } from '../core/http/host-policy.js';
import type { Request } from '../core/http/request.js';
import { Response } from '../core/http/response.js';
import type { McpContext } from './mcp-context.js';
import { createMcpServer } from './mcp-server.js';
import { notifyNewProfiles } from './profile-notifications.js';

/**
 * Whether a browser page may call: no Origin (a client that is no browser), or an Origin whose host
 * and port are the Host the request came to (which the Host policy already allowed). A page of
 * another site, a DNS-rebound name included, sends its own Origin and is refused.
 */
export function originAllowed(request: Request): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = parseAuthority(request.host);
  return host !== null && url.host.toLowerCase() === request.host.toLowerCase();
}

interface Session {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  stopNotifying: () => void;
}

/** Sessions kept at once; the oldest is closed to make room (a client that never says goodbye). */
const MAX_SESSIONS = 16;

/**
 * MCP's Streamable HTTP transport at /_profiler/mcp with sessions: an `initialize` POST opens one
 * (its id in `Mcp-Session-Id`), its later POSTs are answered as JSON, and its GET is the event
 * stream on which it hears of new profiles as `profiles tail` would. A foreign Origin is a 403
 * before the SDK sees it; an unknown session id a 404, as the specification asks.
 */
export class McpHttpEndpoint {
  readonly #sessions = new Map<string, Session>();

  constructor(
    private readonly context: McpContext,
    private readonly version: string,
  ) {}

  async answer(request: Request): Promise<Response> {
    if (!originAllowed(request)) {
      return Response.text(
        "Forbidden: this Origin may not call the profiler's MCP endpoint (DNS rebinding protection).",
        403,
      );
    }
    const id = request.header('mcp-session-id');
    let session = id === undefined ? undefined : this.#sessions.get(id);
    if (id !== undefined && session === undefined) {
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found: initialize again.' }, id: null },
        404,
      );
    }
    session ??= await this.#open();
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'DELETE';
    const web = await session.transport.handleRequest(
      new globalThis.Request(`http://${request.host}${request.path}`, {
        method: request.method,
        headers: request.headers,
        ...(hasBody ? { body: new Uint8Array(request.body) } : {}),
      }),
    );
    if (session.transport.sessionId === undefined) await this.#close(session); // not initialized: nothing to keep
    const headers: Record<string, string> = {};
    web.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (web.body !== null && (headers['content-type'] ?? '').startsWith('text/event-stream')) {
      const response = Response.stream(
        Readable.fromWeb(web.body as WebReadableStream<Uint8Array>),
        headers['content-type'],
      );
      for (const [name, value] of Object.entries(headers)) if (name !== 'content-type') response.setHeader(name, value);
      response.status = web.status;
      return response;
    }
    return new Response(Buffer.from(await web.arrayBuffer()), web.status, headers);
  }

  /** Ends every session and its event stream (the server is closing). */
  async close(): Promise<void> {
    await Promise.all([...new Set(this.#sessions.values())].map((session) => this.#close(session)));
  }

  async #open(): Promise<Session> {
    const server = createMcpServer(this.context, this.version);
    const session: Session = {
      server,
      transport: undefined as unknown as WebStandardStreamableHTTPServerTransport,
      stopNotifying: () => undefined,
    };
    session.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => {
        if (this.#sessions.size >= MAX_SESSIONS) {
          const [oldest] = this.#sessions.values();
          void this.#close(oldest);
        }
        this.#sessions.set(sessionId, session);
      },
      onsessionclosed: () => void this.#close(session),
    });
    session.stopNotifying = notifyNewProfiles(server, this.context.storage);
    await server.connect(session.transport);
    return session;
  }

  async #close(session: Session): Promise<void> {
    session.stopNotifying();
    const id = session.transport.sessionId;
    if (id !== undefined) this.#sessions.delete(id);
    await session.server.close().catch(() => undefined);
  }
}
