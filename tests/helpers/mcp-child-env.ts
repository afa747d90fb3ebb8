import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * The environment an MCP client gives `app mcp` (the SDK's default: PATH, HOME, ...), with the state
 * folder the test runner gives the run's servers: the instance key they prove themselves with.
 */
export function mcpChildEnv(): Record<string, string> {
  const state = process.env.APPKERNEL_STATE_DIR;
  return state ? { ...getDefaultEnvironment(), APPKERNEL_STATE_DIR: state } : getDefaultEnvironment();
}
