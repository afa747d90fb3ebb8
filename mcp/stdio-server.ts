import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpContext } from './mcp-context.js';
import { createMcpServer } from './mcp-server.js';
import { notifyNewProfiles } from './profile-notifications.js';

/** Serves MCP on stdin/stdout until stdin ends (the client went away) or the process is told to stop. */
export async function serveMcpOverStdio(context: McpContext, version: string): Promise<void> {
  const server = createMcpServer(context, version);
  const stop = notifyNewProfiles(server, context.storage);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await server.connect(transport);
  await closed;
  stop();
  await server.close();
}
