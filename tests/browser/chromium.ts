import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { Test } from 'uvu';
import { serveForTest, type TestServer } from '../helpers/serve.js';

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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
 * A test server (serveForTest) and Chromium, opened before the suite's other hooks and closed after
 * its tests: the object returned holds them once the suite runs.
 */
export function serverAndChromium(test: Test): { t: TestServer; browser: Browser } {
  const opened = {} as { t: TestServer; browser: Browser };
  test.before(async () => {
    opened.t = await serveForTest();
    opened.browser = await launchChromium();
  });
  test.after(async () => {
    await opened.browser?.close();
    await opened.t?.stop();
  });
  return opened;
}
