import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// What a throwaway database server of the tests (temp-postgres.ts, temp-mariadb.ts) needs whatever
// its engine: a free port on 127.0.0.1, a folder of its own, the system account it runs as, and its
// folder gone when the test process exits.

/** A system account's ids. */
export interface Account {
  uid: number;
  gid: number;
}

/** A port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The engine's own system account (`postgres`, `mysql`) when this process is root (both servers refuse root), else null: ourselves. */
export function serverAccount(name: string): Account | null {
  if (process.getuid?.() !== 0) return null;
  return {
    uid: Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim()),
  };
}

/** The spawn options that run a child as `account` (none for ourselves). */
export function asAccount(account: Account | null): { uid?: number; gid?: number } {
  return account ? { uid: account.uid, gid: account.gid } : {};
}

/** A new temporary folder with `mode`, owned by `account`. */
export function serverFolder(prefix: string, mode: number, account: Account | null): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(root, mode);
  if (account) chownSync(root, account.uid, account.gid);
  return root;
}

/** Runs a setup command of the engine as `account`; its output in the error when it fails. */
export function runAs(account: Account | null, file: string, args: string[], timeout = 60_000): void {
  const result = spawnSync(file, args, { encoding: 'utf8', timeout, ...asAccount(account) });
  if (result.status !== 0)
    throw new Error(
      `${file} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}`,
    );
}

/**
 * At the test process's exit, `stop` the server (errors ignored: it may be gone already) and delete
 * its folder; the function returned does both now and cancels the exit hook.
 */
export function removedAtExit(root: string, stop: () => void): () => void {
  const remove = () => {
    try {
      stop();
    } catch {
      // Already gone.
    }
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', remove);
  return () => {
    process.removeListener('exit', remove);
    remove();
  };
}
