import { HttpError } from '../errors.js';
import type { ExceptionData, ExceptionRecord } from './exception-data.js';
import { parseStack } from './stack-frames.js';

const MAX_CHAIN = 16;

/**
 * Turns anything thrown into an Error, so the rest of the kernel only meets Errors. A value that is
 * none has no stack to point at the app: `route`, when known, says whose request threw it.
 */
export function toError(thrown: unknown, route: string | null = null): Error {
  if (thrown instanceof Error) return thrown;
  let shown: string;
  try {
    shown = typeof thrown === 'string' ? thrown : (JSON.stringify(thrown) ?? String(thrown));
  } catch {
    shown = String(thrown);
  }
  const error = new Error(
    `A non-error value was thrown${route === null ? '' : ` while answering route "${route}"`}: ${shown}`,
  );
  error.name = 'NonErrorThrown';
  return error;
}

export function statusOf(error: unknown): number {
  return error instanceof HttpError ? error.status : 500;
}

function className(error: Error): string {
  const name = error.name && error.name !== 'Error' ? error.name : error.constructor?.name;
  return name || 'Error';
}

/**
 * The stack without its "Name: message" header. A message can hold lines that
 * look like frames (`Bad id: x\n    at f (/etc/passwd:1:1)` from a reflected
 * query value): read as frames, they would put excerpts of any file on the page.
 */
export function stackBelowHeader(error: Error): string | undefined {
  const stack = error.stack;
  if (typeof stack !== 'string') return undefined;
  let header: string;
  try {
    header = String(error);
  } catch {
    header = '';
  }
  if (header && stack.startsWith(header)) return stack.slice(header.length);
  // Written with another name or a custom toString: the header has as many lines as the message.
  const headerLines = String(error.message ?? '').split('\n').length;
  return stack.split('\n').slice(headerLines).join('\n');
}

/**
 * The cause chain as plain data, outermost first, with source-mapped frames relative to `root`
 * (none when `frames` is false: reading a stack through source maps is most of an error's cost).
 */
export function flattenException(thrown: unknown, root: string, { frames = true } = {}): ExceptionData {
  const chain: ExceptionRecord[] = [];
  const seen = new Set<unknown>();
  let current: unknown = thrown;
  while (current !== undefined && current !== null && !seen.has(current) && chain.length < MAX_CHAIN) {
    seen.add(current);
    const error = toError(current);
    chain.push({
      class: className(error),
      message: error.message,
      status: statusOf(error),
      headers: error instanceof HttpError ? { ...error.headers } : {},
      frames: frames ? parseStack(stackBelowHeader(error), root) : [],
    });
    current = (error as Error & { cause?: unknown }).cause;
  }
  return { chain };
}
