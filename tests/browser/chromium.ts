import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

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
