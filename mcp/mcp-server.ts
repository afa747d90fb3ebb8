import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './mcp-context.js';
import { registerProfileResources } from './profile-resources.js';
import { registerProfileTools } from './profile-tools.js';
import { registerReplayTool } from './replay-tool.js';
import { registerRouteTools } from './route-tools.js';

/** The profiler's MCP server: its tools and resources over the context's store and routes, on any transport. */
export function createMcpServer(context: McpContext, version: string): McpServer {
  const server = new McpServer(
    { name: 'appkernel', version },
    {
      capabilities: { resources: { subscribe: true, listChanged: true }, tools: {} },
      instructions:
        "appkernel's debug profiler: list_profiles and get_profile read recorded requests; last_error explains the newest failure; explain_route says why a path reaches a route or none; replay sends a request again.",
    },
  );
  registerProfileTools(server, context);
  registerRouteTools(server, context);
  registerReplayTool(server, context);
  registerProfileResources(server, context);
  return server;
}
