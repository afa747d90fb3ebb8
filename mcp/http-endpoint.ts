import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { parseAuthority } from '../core/http/host-policy.js';
import type { Request } from '../core/http/request.js';
import { Response } from '../core/http/response.js';
import type { McpContext } from './mcp-context.js';
import { createMcpServer } from './mcp-server.js';

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

/**
 * One request of MCP's Streamable HTTP transport at /_profiler/mcp, stateless (a server made for
 * each request, answers as JSON): a foreign Origin is a 403 before the SDK sees it.
 */
export async function answerMcpRequest(request: Request, context: McpContext, version: string): Promise<Response> {
  if (!originAllowed(request)) {
    return Response.text('Forbidden: this Origin may not call the profiler\'s MCP endpoint (DNS rebinding protection).', 403);
  }
  const server = createMcpServer(context, version);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const web = await transport.handleRequest(new globalThis.Request(`http://${request.host}${request.path}`, {
      method: request.method, headers: request.headers, ...(hasBody ? { body: new Uint8Array(request.body) } : {}),
    }));
    const headers: Record<string, string> = {};
    web.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return new Response(Buffer.from(await web.arrayBuffer()), web.status, headers);
  } finally {
    await server.close();
  }
}
