import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer, type DevServer } from '../../server/dev-server.js';
import type { ServerTimeouts } from '../../core/http/server.js';

export interface FaultServer {
  server: DevServer;
  base: string;
  storeDir: string;
  /** every line the server printed: warnings, and the WARNING-and-above log records */
  lines: string[];
  /** closes the server; removes the store folder only when this helper made it */
  stop(): Promise<void>;
}

/**
 * A real dev server on 127.0.0.1 and a free port, like serveForTest, but whose
 * printed lines are kept (store warnings land there) and whose store folder
 * and server timeouts a test can choose.
 */
export async function serveFaults(
  options: { appFile?: string | null; root?: string; storeDir?: string; timeouts?: Partial<ServerTimeouts> } = {},
): Promise<FaultServer> {
  const ownStore = options.storeDir === undefined;
  const storeDir = options.storeDir ?? mkdtempSync(join(tmpdir(), 'appkernel-faults-store-'));
  const lines: string[] = [];
  const server = await startDevServer({
    port: 0,
    host: '127.0.0.1',
    appFile: options.appFile ?? null,
    root: options.root ?? process.cwd(),
    storeDir,
    debug: true,
    watch: false,
    logLevel: 'WARNING',
    print: (line) => lines.push(line),
    timeouts: options.timeouts,
  });
  return {
    server,
    base: server.url,
    storeDir,
    lines,
    async stop() {
      await server.close();
      if (ownStore) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` every 20 ms until it holds; throws `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
