import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppError } from '../core/errors.js';
import { parseUtcTime } from '../core/profiler/utc-time.js';
import { isStoreUrl, shownLocation } from '../core/profiler/storage/open-storage.js';
import { EDITORS, editorTemplate } from '../render/editor-link.js';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new AppError('APP_ERR_CLI_USAGE', `Invalid port "${value}": expected an integer from 0 to 65535.`);
  return port;
}

export const STORE_OPTION_HELP =
  'profile store: a folder, or postgres://user:password@host:port/db shared by several servers (default: $APPKERNEL_PROFILER_STORE, $APPKERNEL_PROFILER_DIR or ./var/profiler)';

/**
 * --store, else $APPKERNEL_PROFILER_STORE, else the folder of resolveStoreDir(): a store's URL as
 * given, a folder resolved. A folder given is resolved from `cwd`; the default one lies in `projectDir`.
 */
export function resolveStoreLocation(option: string | undefined, cwd: string, projectDir = cwd): string {
  if (option === '')
    throw new AppError('APP_ERR_CLI_USAGE', 'Invalid --store "": give a folder, or a postgres:// URL.');
  const given = option ?? (process.env.APPKERNEL_PROFILER_STORE || undefined);
  if (given !== undefined && isStoreUrl(given)) return given;
  if (given !== undefined && OTHER_URL.test(given)) {
    const where = option === undefined ? 'APPKERNEL_PROFILER_STORE' : '--store';
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Unsupported store "${given}" (${where}): give a folder, or a postgres:// URL (postgresql:// too).`,
    );
  }
  const dir =
    given === undefined && !process.env.APPKERNEL_PROFILER_DIR
      ? resolveStoreDir(undefined, projectDir)
      : resolveStoreDir(given, cwd);
  notAFile(dir, option === undefined ? 'store folder' : '--store');
  return dir;
}

/** A folder option naming a file would fail later with a system error (EEXIST, ENOTDIR): said now. */
export function notAFile(dir: string, option: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new AppError('APP_ERR_CLI_USAGE', `Invalid ${option} "${dir}": it is a file, not a folder.`);
}

/** A URL of a scheme the store does not speak ("mysql://x"): read as a folder, it would be one named "mysql:". */
const OTHER_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/** --status: an exact status (404) or a class (4xx), lower-cased. */
export function parseStatusFilter(value: string): string {
  if (!/^[1-5]([0-9]{2}|xx)$/i.test(value))
    throw new AppError('APP_ERR_CLI_USAGE', `Invalid status "${value}": expected e.g. 404 or 4xx.`);
  return value.toLowerCase();
}

/** A filter given empty (a shell variable left unset) would match everything: said instead. */
export function nonEmptyFilter(value: string, option: string): string {
  if (value === '')
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Invalid ${option} "": give a value, or leave the option out to match all.`,
    );
  return value;
}

/** Where the profiles are, for a terminal: a database URL without its password. */
export function describeStoreLocation(location: string): string {
  return shownLocation(location);
}

export function resolveStoreDir(option: string | undefined, cwd: string): string {
  // An empty variable counts as unset: resolving '' would put the store in the working directory itself.
  return resolve(cwd, option ?? (process.env.APPKERNEL_PROFILER_DIR || 'var/profiler'));
}

/** The largest count any option takes: a 32-bit signed integer, what every store can search with. */
export const MAX_COUNT = 2_147_483_647;

export function parseInteger(value: string, name: string, min = 0, max = MAX_COUNT): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new AppError('APP_ERR_CLI_USAGE', `Invalid ${name} "${value}": expected an integer from ${min} to ${max}.`);
  return n;
}

/** A duration longer than this (about 100 years) is a typo, not a time range. */
const MAX_DURATION_MS = 100 * 365 * 86_400_000;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "30m", "2h", "7d" -> ms */
export function parseDuration(value: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)$/.exec(value.trim());
  const ms = m ? Number(m[1]) * UNITS[m[2]] : NaN;
  if (!(ms <= MAX_DURATION_MS))
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Invalid duration "${value}": expected a number and a unit (ms, s, m, h, d, w) up to 100 years, e.g. 2h or 7d.`,
    );
  return ms;
}

/** An ISO date/time, or a duration ago ("15m" = fifteen minutes ago). */
export function parseTimeOption(value: string, now = Date.now()): number {
  if (/^\d+(?:\.\d+)?\s*(ms|s|m|h|d|w)$/.test(value.trim())) return now - parseDuration(value);
  const ms = parseUtcTime(value);
  if (Number.isNaN(ms))
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Invalid time "${value}": expected an ISO date/time in UTC unless a zone is given (2026-11-22T14:00) or a duration ago (15m, 2h).`,
    );
  return ms;
}

/** `--editor`, else APPKERNEL_EDITOR (empty counts as unset): a known editor's URL template, a template of its own, or null. */
export function resolveEditor(option: string | undefined, env = process.env.APPKERNEL_EDITOR): string | null {
  const value = option ?? (env || undefined);
  if (value === undefined) return null;
  const template = editorTemplate(value);
  if (template === null) {
    const where = option === undefined ? 'APPKERNEL_EDITOR' : '--editor';
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Unknown editor "${value}" (${where}): use ${Object.keys(EDITORS).join(', ')}, or a URL template with %f and %l (e.g. "myeditor://open?file=%f&line=%l").`,
    );
  }
  return template;
}

/** `--query-stacks`: a whole number of runs, zero or more, or `all` (Infinity). */
export function parseQueryStacks(value: string): number {
  if (value === 'all') return Number.POSITIVE_INFINITY;
  if (!/^\d{1,9}$/.test(value))
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Invalid query-stacks "${value}": expected a number of runs, e.g. 3, or all.`,
    );
  return Number(value);
}

/** A threshold in milliseconds (`--slow-query 50`, `2.5`): a finite number, zero or more. */
export function parseMs(value: string, name: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(n))
    throw new AppError(
      'APP_ERR_CLI_USAGE',
      `Invalid ${name} "${value}": expected a number of milliseconds, e.g. 50 or 2.5.`,
    );
  return n;
}
