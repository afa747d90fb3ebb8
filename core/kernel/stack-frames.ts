import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOwnFile, PACKAGE_ROOT } from '../package-root.js';
import type { CodeExcerpt, Frame } from './exception-data.js';
import { BoundedCache } from '../bounded-cache.js';

const FRAME_LINE = /^\s*at (?:(.+?) \()?(.+?)(?::(\d+))?(?::(\d+))?\)?$/;
const EXCERPT_RADIUS = 5;
const MAX_FRAMES = 64;

/** A frame, and the path of its file as read from disk (its `file` is shown relative to the root). */
type ParsedFrame = Frame & { path: string };

/**
 * A stack's frames as parsed; `shared` when none of them can carry an excerpt: the same frozen
 * frames are then handed out for every error with that stack.
 */
interface ParsedStack {
  frames: ParsedFrame[];
  shared: readonly Frame[] | null;
}

/** Stacks already parsed, by root then stack text: an error page shows the same few stacks again and again. */
const parsed = new Map<string, BoundedCache<string, ParsedStack>>();
const MAX_PARSED = 500;

/**
 * Parses a V8 stack (source-mapped when maps are enabled) into frames, files relative to `root`.
 * The frames of a stack text are worked out once; the excerpts of app frames are read each time
 * (their file may have changed while the stack's text did not). A stack without such frames
 * gives the same frozen array each time, so that what is made of it (its HTML, its JSON) can be
 * kept by the array.
 */
export function parseStack(stack: string | undefined, root: string): Frame[] {
  if (!stack) return [];
  let byStack = parsed.get(root);
  if (byStack === undefined) parsed.set(root, (byStack = new BoundedCache(MAX_PARSED)));
  let entry = byStack.get(stack);
  if (entry === undefined) {
    const frames = parseFrames(stack, root);
    const shared = frames.some((frame) => canHaveExcerpt(frame, root))
      ? null
      : Object.freeze(frames.map((frame) => Object.freeze(plainFrame(frame))));
    entry = byStack.set(stack, { frames, shared });
  }
  return entry.shared !== null ? (entry.shared as Frame[]) : entry.frames.map((frame) => withExcerpt(frame, root));
}

function parseFrames(stack: string, root: string): ParsedFrame[] {
  const frames: ParsedFrame[] = [];
  for (const line of stack.split('\n')) {
    if (!line.startsWith('    at ')) continue;
    const m = FRAME_LINE.exec(line);
    if (!m) continue;
    let fn = m[1] ?? '(anonymous)';
    let location = m[2];
    if (!m[1] && !location.includes('/') && !location.includes(':')) {
      fn = location;
      location = '';
    }
    frames.push(toFrame(fn.replace(/^async /, ''), location, m[3], m[4], root));
    if (frames.length >= MAX_FRAMES) break;
  }
  return frames;
}

/** A frame of its own for the caller: with the excerpt of its line as the file reads now, when it is the app's. */
function withExcerpt(frame: ParsedFrame, root: string): Frame {
  const copy = plainFrame(frame);
  if (canHaveExcerpt(frame, root)) {
    const excerpt = readExcerpt(frame.path, frame.line!);
    if (excerpt) copy.excerpt = excerpt;
  }
  return copy;
}

function plainFrame(frame: ParsedFrame): Frame {
  return { function: frame.function, file: frame.file, line: frame.line, column: frame.column, kind: frame.kind };
}

/** Excerpts come from the app's own folder only (and the embedded demo app): a frame in a file elsewhere shows no code. */
function canHaveExcerpt(frame: ParsedFrame, root: string): boolean {
  return (
    frame.kind === 'app' && frame.line !== null && (isInside(root, frame.path) || isInside(PACKAGE_ROOT, frame.path))
  );
}

function toFrame(
  fn: string,
  location: string,
  line: string | undefined,
  column: string | undefined,
  root: string,
): ParsedFrame {
  const { file, display, kind } = placeOf(location, root);
  return {
    function: fn,
    file: display,
    line: line ? Number(line) : null,
    column: column ? Number(column) : null,
    kind,
    path: file,
  };
}

interface Place {
  file: string;
  display: string | null;
  kind: Frame['kind'];
}

/** Where a stack location is, by root then location: the same few files recur in every trace. */
const places = new Map<string, BoundedCache<string, Place>>();
const MAX_PLACES = 1000;

function placeOf(location: string, root: string): Place {
  let byLocation = places.get(root);
  if (byLocation === undefined) places.set(root, (byLocation = new BoundedCache(MAX_PLACES)));
  let place = byLocation.get(location);
  if (place === undefined) {
    let file = location;
    if (file.startsWith('file://')) {
      try {
        file = fileURLToPath(file);
      } catch {
        /* keep as given */
      }
    }
    place = byLocation.set(location, { file, display: file ? displayPath(file, root) : null, kind: classify(file) });
  }
  return place;
}

function classify(file: string): Frame['kind'] {
  if (!isAbsolute(file)) return 'internal';
  if (file.includes(`${sep}node_modules${sep}`)) return 'vendor';
  if (file.startsWith(PACKAGE_ROOT + sep) && (isOwnFile(file) || file.startsWith(join(PACKAGE_ROOT, 'tests') + sep))) {
    const own = relative(PACKAGE_ROOT, file);
    return /^(dist[\\/])?core[\\/]app[\\/]demo-app\.[jt]s$/.test(own) || own.startsWith(`tests${sep}`)
      ? 'app'
      : 'vendor';
  }
  return 'app';
}

function isInside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function displayPath(file: string, root: string): string {
  if (!isAbsolute(file)) return file;
  const rel = relative(root, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel.split(sep).join('/');
}

/** Only source files get an excerpt, whatever a frame names: never `.env`, keys or `/etc/passwd`. */
const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

const sources = new BoundedCache<string, { mtime: number; lines: string[] }>(200);

function readExcerpt(file: string, line: number): CodeExcerpt | undefined {
  if (!SOURCE_FILE.test(file)) return undefined;
  try {
    const mtime = statSync(file).mtimeMs;
    let cached = sources.get(file);
    if (!cached || cached.mtime !== mtime) {
      cached = sources.set(file, { mtime, lines: readFileSync(file, 'utf8').split(/\r?\n/) });
    }
    const start = Math.max(1, line - EXCERPT_RADIUS);
    const end = Math.min(cached.lines.length, line + EXCERPT_RADIUS);
    if (line > cached.lines.length) return undefined;
    return { start, lines: cached.lines.slice(start - 1, end) };
  } catch {
    return undefined;
  }
}
