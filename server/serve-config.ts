import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.js';
import type { ConfigData } from '../core/profiler/panel-data.js';

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
    options[name] = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return {
    node: process.version,
    appkernel: packageInfo(PACKAGE_ROOT)?.version ?? 'unknown',
    app: facts.appFile === null ? null : packageInfo(facts.root),
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
    return { name: typeof json.name === 'string' ? json.name : '(no name)', version: typeof json.version === 'string' ? json.version : '(no version)' };
  } catch {
    return null;
  }
}
