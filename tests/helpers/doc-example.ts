import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ENTRY, startServe, type ServeProcess } from './cli.js';

export interface ServedExample {
  dir: string;
  /** the store `app serve` writes, for `app profiles --store` */
  store: string;
  serve: ServeProcess;
  stop(): Promise<void>;
}

/**
 * The first ```ts block of a docs page, written as a fresh folder's app.config.ts (only the package name
 * pointing at this build) and served by the real bin, as a reader would run it.
 */
export async function serveDocExample(page: string): Promise<ServedExample> {
  const code = /```ts\n([^]*?)```/.exec(readFileSync(page, 'utf8'))![1];
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-doc-example-'));
  const store = join(dir, 'var');
  writeFileSync(join(dir, 'app.config.ts'), code.replace("from 'appkernel'", `from ${JSON.stringify(PACKAGE_ENTRY)}`));
  const serve = await startServe(['--store', store, '--no-watch'], { cwd: dir });
  return {
    dir,
    store,
    serve,
    async stop() {
      await serve.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
