import { formatFrames } from '../kernel/source-mapped-stacks.js';
import { parseStack } from '../kernel/stack-frames.js';
import type { Frame } from '../kernel/exception-data.js';

/** The app's frame that called a driver: its function, and its file (relative to the app's root) and line in the source. */
export type AppFrame = Pick<Frame, 'function' | 'file' | 'line'>;

/** A stack captured unformatted (Error.captureStackTrace), and the app's frame in it once found. */
export interface StackHolder {
  stack?: unknown;
  frame?: AppFrame | null;
}

/**
 * Frames found, by generated file then position in it (one call site runs the same query again and
 * again); a file that is Node's or a package's is null: its frames are skipped unlooked.
 */
const known = new Map<string, Map<number, AppFrame | null> | null>();
/** The root the frames found are relative to. */
let knownRoot = '';
let knownPlaces = 0;
const MAX_KNOWN = 2_000;

const callSites = (_error: Error, sites: NodeJS.CallSite[]): NodeJS.CallSite[] => sites;

/**
 * The first frame of the app's own code in a captured stack, source-mapped. Its call sites are read
 * raw (no text is made of the whole stack) and looked up by file and position, two numbers V8 has at
 * hand; only a new place is mapped and classified (stack-frames.ts, as the exception panel's frames are).
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
  if (root !== knownRoot || knownPlaces >= MAX_KNOWN) forgetAppFrames(root);
  const sites = stack as NodeJS.CallSite[];
  for (let i = 0; i < sites.length; i++) {
    const file = sites[i].getFileName();
    if (!file) continue;
    let places = known.get(file);
    if (places === undefined) {
      places =
        file.startsWith('node:') || file.includes('/node_modules/') || file.includes('\\node_modules\\')
          ? null
          : new Map();
      known.set(file, places);
      knownPlaces++;
    }
    if (places === null) continue;
    const position = sites[i].getPosition();
    let frame = places.get(position);
    if (frame === undefined) {
      frame = firstAppFrame(parseStack(formatFrames(sites.slice(i, i + 2)), root).slice(0, 1));
      places.set(position, frame);
      knownPlaces++;
    }
    if (frame !== null) return frame;
  }
  return null;
}

/** Forgets the places found: the app's files (and their source maps) may have changed. */
export function forgetAppFrames(root = ''): void {
  known.clear();
  knownRoot = root;
  knownPlaces = 0;
}

function firstAppFrame(frames: readonly Frame[]): AppFrame | null {
  const app = frames.find((frame) => frame.kind === 'app');
  return app ? { function: app.function, file: app.file, line: app.line } : null;
}
