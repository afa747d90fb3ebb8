import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const TOOL_NAMES = ['explain_route', 'get_profile', 'last_error', 'list_profiles', 'list_routes', 'replay'];

export const SECRET = 'hunter2-planted';

export function newClient(): Client {
  return new Client({ name: 'appkernel-test', version: '1.0.0' });
}

/** The text of a tool's answer, with whether it was an error answer. */
export async function callText(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { text, isError: result.isError === true };
}
