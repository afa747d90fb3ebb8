import { formatFrames } from '../kernel/source-mapped-stacks.js';
import { parseStack } from '../kernel/stack-frames.js';
import type { Frame } from '../kernel/exception-data.js';

/** The app's frame that called a driver: its function, and its file (relative to the app's root) and line in the source. */
export type AppFrame = Pick<Frame, 'function' | 'file' | 'line'>;

/** A stack captured unformatted (Error.captureStackTrace). */
export interface StackHolder { stack?: unknown }

/** Frames found, by root and generated place: one call site runs the same query again and again. */
const known = new Map<string, AppFrame | null>();
const MAX_KNOWN = 2_000;

const callSites = (_error: Error, sites: NodeJS.CallSite[]): NodeJS.CallSite[] => sites;

/**
 * The first frame of the app's own code in a captured stack, source-mapped. Its call sites are read
 * raw (no text is made of the whole stack), frames of Node and node_modules skipped unlooked, and only
 * a new place is mapped and classified (stack-frames.ts, as the exception panel's frames are).
 */
export function appFrame(holder: StackHolder, root: string): AppFrame | null {
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = callSites;
  let stack: unknown;
  try {
    stack = holder.stack;
  } finally {
    Error.prepareStackTrace = previous;
  }
  if (typeof stack === 'string') return firstAppFrame(parseStack(stack, root));
  if (!Array.isArray(stack)) return null;
  const sites = stack as NodeJS.CallSite[];
  for (let i = 0; i < sites.length; i++) {
    const file = sites[i].getFileName();
    if (!file || file.startsWith('node:') || file.includes('/node_modules/') || file.includes('\\node_modules\\')) continue;
    const key = `${root}\n${file}:${sites[i].getLineNumber()}:${sites[i].getColumnNumber()}:${sites[i].getFunctionName()}:${sites[i].isAsync()}`;
    let frame = known.get(key);
    if (frame === undefined) {
      frame = firstAppFrame(parseStack(formatFrames(sites.slice(i, i + 2)), root).slice(0, 1));
      if (known.size >= MAX_KNOWN) known.clear();
      known.set(key, frame);
    }
    if (frame !== null) return frame;
  }
  return null;
}

/** Forgets the places found: the app's files (and their source maps) may have changed. */
export function forgetAppFrames(): void {
  known.clear();
}

function firstAppFrame(frames: readonly Frame[]): AppFrame | null {
  const app = frames.find((frame) => frame.kind === 'app');
  return app ? { function: app.function, file: app.file, line: app.line } : null;
}
