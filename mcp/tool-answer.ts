import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../core/errors.js';
import { terminalSafe } from '../render/text/terminal-safe.js';

export function textAnswer(text: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}

/** A tool's text answer; an AppError (a bad token, a bad panel) becomes an error answer that says why, anything else too, never a crash. */
export async function toolAnswer(work: () => Promise<string>): Promise<CallToolResult> {
  try {
    return textAnswer(await work());
  } catch (error) {
    const message =
      error instanceof AppError ? error.message : `Failed: ${error instanceof Error ? error.message : String(error)}`;
    return textAnswer(terminalSafe(message), true);
  }
}
