import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ADAPTER_OPTIONS } from '../core/http/node-adapter.js';
import { HostPolicy } from '../core/http/host-policy.js';
import { DEFAULT_TIMEOUTS, type ServerTimeouts } from '../core/http/server.js';
import { PACKAGE_ROOT } from '../core/package-root.js';
import type { ConfigData } from '../core/profiler/panel-data.js';
import { DEFAULT_RETENTION } from '../core/profiler/storage/retention.js';

export interface ServeFacts {
  appFile: string | null;
  root: string;
  storeDir: string | null;
  options: Record<string, unknown>;
}

/**
 * What the configuration panel shows, as the server sees it when it builds a kernel: unredacted
 * here (the profile builder redacts it, as everything it stores).
 */
export function serveConfig(facts: ServeFacts): ConfigData {
  const options: Record<string, string> = {};
  for (const [name, value] of Object.entries(facts.options)) {
    if (value === undefined || typeof value === 'function') continue;
    options[name] = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  }
  const app = facts.appFile === null ? null : packageInfo(facts.root);
  const own = appVariables(facts.root, app?.name ?? null);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && own(name)) env[name] = value;
  return {
    node: process.version,
    appkernel: packageInfo(PACKAGE_ROOT)?.version ?? 'unknown',
    app,
    appFile: facts.appFile,
    options,
    store: facts.storeDir,
    env,
    redacted: [],
  };
}

function packageInfo(dir: string): { name: string; version: string } | null {
  try {
    const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return {
      name: typeof json.name === 'string' ? json.name : '(no name)',
      version: typeof json.version === 'string' ? json.version : '(no version)',
    };
  } catch {
    return null;
  }
}

/** What `app serve` was given that the panel shows in effect (any option left out takes its default). */
export interface GivenServeOptions {
  host: string;
  port: number;
  allowedHosts?: readonly string[];
  publicDir?: string | null;
  profileStatic?: boolean;
  debug: boolean;
  watch: boolean;
  logLevel: string;
  retention?: { maxProfiles?: number; maxBytes?: number; maxAgeMs?: number };
  timeouts?: Partial<ServerTimeouts>;
  editor?: string | null;
}

const DEFAULT = ' (default)';

/**
 * The values the server runs with, one per line of the panel, those left to their default marked
 * "(default)": allowed hosts with the loopback names always allowed, each retention limit, the
 * body limit (the app's `bodyLimit`), each timeout.
 */
export function effectiveServeOptions(given: GivenServeOptions, bodyLimit: number | undefined): Record<string, string> {
  const shown = <T>(value: T | undefined | null, fallback: T, format: (v: T) => string = String): string =>
    value === undefined || value === null ? format(fallback) + DEFAULT : format(value);
  const options: Record<string, string> = {
    host: given.host,
    port: String(given.port),
    allowedHosts:
      new HostPolicy([given.host, ...(given.allowedHosts ?? [])]).names.join(', ') +
      (given.allowedHosts?.length ? '' : DEFAULT),
    debug: String(given.debug),
    watch: String(given.watch),
    logLevel: given.logLevel,
    publicDir: shown(given.publicDir, 'none'),
    profileStatic: shown(given.profileStatic, false),
    editor: shown(given.editor, 'no links'),
    bodyLimit: shown(bodyLimit, DEFAULT_ADAPTER_OPTIONS.bodyLimit, bytes),
    'retention.maxProfiles': shown(given.retention?.maxProfiles, DEFAULT_RETENTION.maxProfiles),
    'retention.maxBytes': shown(given.retention?.maxBytes, DEFAULT_RETENTION.maxBytes, bytes),
    'retention.maxAge': shown(given.retention?.maxAgeMs, DEFAULT_RETENTION.maxAgeMs, duration),
  };
  for (const name of Object.keys(DEFAULT_TIMEOUTS) as (keyof ServerTimeouts)[]) {
    const format =
      name === 'maxHeaderSize'
        ? bytes
        : name === 'maxConnections'
          ? String
          : name === 'minRequestRate'
            ? perSecond
            : duration;
    options[`timeouts.${name}`] = shown(given.timeouts?.[name], DEFAULT_TIMEOUTS[name], format);
  }
  return options;
}

function bytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : n % 1024 === 0 ? `${n / 1024} KB` : `${n} bytes`;
}

function perSecond(n: number): string {
  return `${n} bytes/s`;
}

function duration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'days'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  for (const [size, unit] of units) if (ms >= size && ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}

/**
 * The app's own environment variables, not the host's: those named in the project's `.env` files
 * (`.env`, `.env.local`, `.env.development`, ...), those with the `APP_` or `APPKERNEL_` prefix or the
 * app's package name as one (`my-shop` gives `MY_SHOP_`), and `NODE_ENV`.
 */
export function appVariables(root: string, appName: string | null): (name: string) => boolean {
  const named = new Set<string>(['NODE_ENV']);
  let files: string[] = [];
  try {
    files = readdirSync(root).filter((file) => file === '.env' || file.startsWith('.env.'));
  } catch {
    /* no folder: no .env names */
  }
  for (const file of files) {
    let text = '';
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split(/\r?\n/)) {
      const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line);
      if (match) named.add(match[1]);
    }
  }
  const prefixes = ['APP_', 'APPKERNEL_'];
  const fromName = appName
    ?.replace(/^@[^/]*\//, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (fromName) prefixes.push(`${fromName}_`);
  return (name) => named.has(name) || prefixes.some((prefix) => name.toUpperCase().startsWith(prefix));
}
