import { findSourceMap, type SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { BoundedCache } from '../bounded-cache.js';

type PrepareStackTrace = (error: Error, trace: NodeJS.CallSite[]) => unknown;

/** What a generated position maps to: the original place ("/app/src/a.ts:3:7"), or null when the map has none. */
interface MapMemo {
  places: Map<string, string | null>;
  names: Map<string, string | null>;
}

/**
 * Formats stacks as Node does with source maps enabled, but remembers each mapped place and
 * name: Node looks every frame up in its source map and turns the source's file URL into a path
 * anew (most of an error page's cost), though the same few call sites recur in every trace.
 * The header comes from the formatter this replaces, so Node's own errors keep their `[CODE]`.
 */
export function memoizeSourceMappedStacks(): void {
  const previous = Error.prepareStackTrace as PrepareStackTrace | undefined;
  if (typeof previous !== 'function' || (previous as { memoized?: boolean }).memoized) return;
  const prepare = (error: Error, trace: NodeJS.CallSite[]): unknown => {
    const header = previous(error, []);
    if (trace.length === 0 || typeof header !== 'string') return trace.length === 0 ? header : previous(error, trace);
    return header + mappedFramesOf(trace);
  };
  prepare.memoized = true;
  Error.prepareStackTrace = prepare;
}

const memos = new WeakMap<SourceMap, MapMemo>();

/**
 * Mapped frames by the frames as V8 prints them unmapped (its own text, made natively: a fraction of
 * the cost of mapping): a 404 or a failing route throws from the same call sites again and again.
 * That text names each frame's file, line, column, function, receiver type and async or `new`,
 * everything the mapped text is made of; a module loaded again gets a URL of its own.
 */
const MAX_MAPPED = 500;
const mappedByGenerated = new BoundedCache<string, string>(MAX_MAPPED);

/** Forgets the stacks mapped so far: the source maps of the files they name may have changed (an app reloaded). */
export function forgetMappedStacks(): void {
  mappedByGenerated.clear();
}

function mappedFramesOf(trace: NodeJS.CallSite[]): string {
  let generated = '';
  try {
    for (const callSite of trace) generated += `\n${String(callSite)}`;
  } catch {
    return formatFrames(trace);
  }
  let mapped = mappedByGenerated.get(generated);
  if (mapped === undefined) mapped = mappedByGenerated.set(generated, formatFrames(trace));
  return mapped;
}

/** Each frame as "\n    at ...", mapped where its file has a source map. */
export function formatFrames(trace: NodeJS.CallSite[]): string {
  let text = '';
  let lastFile: string | undefined;
  let lastMap: SourceMap | undefined;
  for (let i = 0; i < trace.length; i++) {
    const callSite = trace[i];
    let line: string | null = null;
    try {
      const file = callSite.getFileName() ?? callSite.getEvalOrigin();
      // Consecutive frames of one file reuse its map; a file without one is looked up every time, as Node does.
      const map = file !== undefined && file === lastFile ? lastMap : lookUpMap(file);
      if (map) {
        lastFile = file;
        lastMap = map;
        line = mappedFrame(map, callSite, trace[i + 1]);
      }
    } catch {
      line = null;
    }
    text += `\n    at ${line ?? String(callSite)}`;
  }
  return text;
}

/** Node's own modules ("node:internal/...") have no source map: not asked, as Node would first make a file URL of the name. */
function lookUpMap(file: string | undefined): SourceMap | undefined {
  return typeof file === 'string' && !file.startsWith('node:') ? findSourceMap(file) : undefined;
}

function memoOf(map: SourceMap): MapMemo {
  let memo = memos.get(map);
  if (memo === undefined) memos.set(map, (memo = { places: new Map(), names: new Map() }));
  return memo;
}

/** The frame as Node prints a mapped one; null when the map has no original place for it (printed as V8 does). */
function mappedFrame(map: SourceMap, callSite: NodeJS.CallSite, caller: NodeJS.CallSite | undefined): string | null {
  const memo = memoOf(map);
  const place = originalPlace(map, memo, callSite.getLineNumber()!, callSite.getColumnNumber()!);
  if (place === null) return null;
  const name = originalName(map, memo, callSite, caller);
  const fnName = callSite.getFunctionName() ?? callSite.getMethodName();
  const prefix = callSite.isAsync() ? 'async ' : callSite.isConstructor() ? 'new ' : '';
  const typeName = callSite.getTypeName();
  const generatedName = `${typeName !== null && typeName !== 'global' ? `${typeName}.` : ''}${fnName || '<anonymous>'}`;
  return `${prefix}${name && name !== generatedName ? name : generatedName} (${place})`;
}

function originalPlace(map: SourceMap, memo: MapMemo, line: number, column: number): string | null {
  const key = `${line}:${column}`;
  let place = memo.places.get(key);
  if (place === undefined) {
    // Source maps count lines and columns from 0, stack traces from 1.
    const entry = map.findEntry(line - 1, column - 1) as Partial<{
      originalSource: string;
      originalLine: number;
      originalColumn: number;
    }>;
    const { originalSource: source, originalLine, originalColumn } = entry;
    place =
      source === undefined || originalLine === undefined || originalColumn === undefined
        ? null
        : `${source.startsWith('file://') ? fileURLToPath(source) : source}:${originalLine + 1}:${originalColumn + 1}`;
    memo.places.set(key, place);
  }
  return place;
}

/**
 * The name the source map gives the enclosing function, else the one at the caller's place
 * when the caller is in the same file (transpilers may have renamed the function).
 */
function originalName(
  map: SourceMap,
  memo: MapMemo,
  callSite: NodeJS.CallSite,
  caller: NodeJS.CallSite | undefined,
): string | null {
  const enclosing = nameAt(map, memo, callSite.getEnclosingLineNumber()!, callSite.getEnclosingColumnNumber()!);
  if (enclosing) return enclosing;
  if (caller === undefined || caller.getFileName() !== callSite.getFileName()) return null;
  return nameAt(map, memo, caller.getLineNumber()!, caller.getColumnNumber()!);
}

function nameAt(map: SourceMap, memo: MapMemo, line: number, column: number): string | null {
  const key = `${line}:${column}`;
  let name = memo.names.get(key);
  if (name === undefined) {
    name = (map.findEntry(line - 1, column - 1) as { name?: string }).name ?? null;
    memo.names.set(key, name);
  }
  return name;
}
