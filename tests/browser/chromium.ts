import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { Test } from 'uvu';
import { serveForTest, type TestServer } from '../helpers/serve.js';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

/** Where the browser suites leave their screenshots: var/ is git-ignored. */
export function screenshotDir(suiteName: string): string {
  const dir = join(process.cwd(), 'var', 'screenshots', suiteName);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A server (serveForTest unless `serve` is given; closed by its stop() unless `close` is) and Chromium,
 * opened before the suite's other hooks and closed after its tests: the object returned holds them once
 * the suite runs.
 */
export function serverAndChromium(test: Test): { t: TestServer; browser: Browser };
export function serverAndChromium<T extends Closable>(
  test: Test,
  options: ServerOptions<T>,
): { t: T; browser: Browser };
export function serverAndChromium(
  test: Test,
  options: ServerOptions<Closable> = { serve: () => serveForTest() },
): { t: Closable; browser: Browser } {
  const close = options.close ?? ((server: Closable) => server.stop());
  const opened = {} as { t: Closable; browser: Browser };
  test.before(async () => {
    opened.t = await options.serve();
    opened.browser = await launchChromium();
  });
  test.after(async () => {
    await opened.browser?.close();
    if (opened.t) await close(opened.t);
  });
  return opened;
}

interface Closable {
  stop(): Promise<unknown>;
}

interface ServerOptions<T extends Closable> {
  serve: () => Promise<T>;
  close?: (server: T) => Promise<unknown>;
}
