import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOwnFile } from '../core/package-root.js';

/** Where an app file failed: 1-based line and column. */
export interface LoadLocation {
  file: string;
  line: number;
  column: number;
}

/** What `app serve`, `app routes` and `app snapshot` show of a load failure. */
export interface LoadErrorReport {
  /** the error's message on one line (esbuild's "Transform failed with 1 error: ..." reduced to its reason) */
  reason: string;
  /** the failing file, line and column, when the error names one */
  location: LoadLocation | null;
  /** the lines around the location, the failing one marked, a caret under its column */
  codeFrame: string;
  /** the app's own frames of the (source-mapped) stack, outermost last: "fn (file:line:col)" */
  appFrames: string[];
}

const FRAME_RADIUS = 2;
/** esbuild (through tsx): "Transform failed with 1 error:\n/a/app.config.ts:2:19: ERROR: Unexpected ";"" */
const TRANSFORM_ERROR = /^(\/[^\n]*?|[A-Za-z]:\\[^\n]*?):(\d+):(\d+): ERROR: /m;
/** Node's SyntaxError of a JavaScript module: its stack begins with "file:///a/app.config.js:3" */
const SYNTAX_ERROR_HEAD = /^(file:\/\/\/\S+?|\/\S+?):(\d+)\n/;
/** Node's ERR_MODULE_NOT_FOUND: "Cannot find module '/a/lib/x.js' imported from /a/app.config.ts", or "package 'x'" */
const NOT_FOUND = /^Cannot find (module|package) '([^']+)' imported from (\S+)$/m;
const QUOTED = /(['"])([^'"\n]+)\1/g;
const STACK_LINE = /^\s*at (?:(.+?) \()?(file:\/\/\/[^\s)]+?|\/[^\s)]+?):(\d+):(\d+)\)?$/;

/** Finds where a load failed and the app's frames of the failure, from the error's message and stack. */
export function describeLoadError(error: unknown): LoadErrorReport {
  const message = (error as Error | null)?.message ?? '';
  const stack = typeof (error as Error | null)?.stack === 'string' ? (error as Error).stack! : '';
  const appFrames: string[] = [];
  let location: LoadLocation | null = null;
  const transform = TRANSFORM_ERROR.exec(message);
  if (transform) location = { file: transform[1], line: Number(transform[2]), column: Number(transform[3]) + 1 };
  const syntax = location ? null : SYNTAX_ERROR_HEAD.exec(stack);
  if (syntax) location = { file: toPath(syntax[1]), line: Number(syntax[2]), column: 1 };
  location ??= missingImportLocation(error, message);
  for (const line of stack.split('\n')) {
    const m = STACK_LINE.exec(line);
    if (!m) continue;
    const file = toPath(m[2]);
    if (!isAppFile(file)) continue;
    appFrames.push(`${m[1] ?? '<anonymous>'} (${file}:${m[3]}:${m[4]})`);
    location ??= { file, line: Number(m[3]), column: Number(m[4]) };
  }
  // A transform error's first line after its place is the reason; any other message is kept whole (a terminal shows its line breaks escaped).
  const reason = transform ? message.slice(transform.index + transform[0].length).split('\n')[0] : message;
  return {
    reason: reason + installHint(error, message),
    location,
    codeFrame: location ? codeFrame(location) : '',
    appFrames,
  };
}

/** An import of a file or package that is not there: no stack names the app's line, so the importer's source is searched for it. */
function missingImportLocation(error: unknown, message: string): LoadLocation | null {
  const missing =
    (error as NodeJS.ErrnoException | null)?.code === 'ERR_MODULE_NOT_FOUND' ? NOT_FOUND.exec(message) : null;
  if (!missing) return null;
  const [, kind, name, importedFrom] = missing;
  const importer = toPath(importedFrom);
  if (!isAppFile(importer)) return null;
  let lines: string[];
  try {
    lines = readFileSync(importer, 'utf8').split(/\r?\n/);
  } catch {
    return null;
  }
  const target = kind === 'module' ? toPath(name) : name;
  const names = (specifier: string): boolean =>
    kind === 'package'
      ? specifier === target || specifier.startsWith(`${target}/`)
      : (specifier.startsWith('.') || specifier.startsWith('/')) && resolve(dirname(importer), specifier) === target;
  for (const [index, line] of lines.entries()) {
    for (const quoted of line.matchAll(QUOTED)) {
      if (names(quoted[2])) return { file: importer, line: index + 1, column: quoted.index + 1 };
    }
  }
  return null;
}

/** A package the app imports that is not installed (often appkernel itself, right after `app init`): what to run. */
function installHint(error: unknown, message: string): string {
  if ((error as NodeJS.ErrnoException | null)?.code !== 'ERR_MODULE_NOT_FOUND') return '';
  const name = /^Cannot find package '([^']+)'/.exec(message)?.[1];
  return name === undefined
    ? ''
    : `. Is it installed? Run npm install${name === 'appkernel' ? '' : ` ${name}`} in the app's folder`;
}

/** The report as lines for a terminal, under the one-line message (which names the place). */
export function formatLoadErrorReport(report: LoadErrorReport): string {
  const parts: string[] = [];
  if (report.codeFrame) parts.push(report.codeFrame);
  if (report.appFrames.length > 0)
    parts.push('', 'Stack (app frames):', ...report.appFrames.map((frame) => `  at ${frame}`));
  return parts.join('\n');
}

function codeFrame({ file, line, column }: LoadLocation): string {
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split(/\r?\n/);
  } catch {
    return '';
  }
  if (line < 1 || line > lines.length) return '';
  const first = Math.max(1, line - FRAME_RADIUS);
  const last = Math.min(lines.length, line + FRAME_RADIUS);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    out.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${lines[n - 1]}`);
    if (n === line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1))}^`);
  }
  return out.join('\n');
}

function toPath(location: string): string {
  const bare = location.split('?')[0];
  if (!bare.startsWith('file://')) return bare;
  try {
    return fileURLToPath(bare);
  } catch {
    return bare;
  }
}

function isAppFile(file: string): boolean {
  return isAbsolute(file) && !file.includes('/node_modules/') && !isOwnFile(file);
}
