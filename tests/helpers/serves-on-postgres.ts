import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type ServeProcess } from './cli.js';
import { startTempPostgres, type TempPostgres } from './temp-postgres.js';

/** How one `app serve` is told about the store: its arguments and environment, given the database's URL. */
export type ServeLaunch = (url: string) => { args: string[]; env?: Record<string, string> };

/** `--store <url>`, the usual way. */
export const STORE_OPTION: ServeLaunch = (url) => ({ args: ['--store', url, '--no-watch'] });

export interface ServesOnPostgres {
  database: TempPostgres;
  /** the folder the servers run in */
  dir: string;
  /** one per launch, in their order */
  serves: ServeProcess[];
  /** stops the servers, deletes the folder and the database server */
  close(): Promise<void>;
}

/**
 * `app serve` processes storing their profiles in one throwaway PostgreSQL (temp-postgres.ts), all
 * started in one temporary folder named from `prefix`: one per launch, started together.
 */
export async function startServesOnPostgres(
  prefix: string,
  launches: ServeLaunch[] = [STORE_OPTION],
): Promise<ServesOnPostgres> {
  const database = await startTempPostgres();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const started = await Promise.allSettled(
    launches.map((launch) => {
      const { args, env } = launch(database.url);
      return startServe(args, { cwd: dir, env });
    }),
  );
  const serves = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const close = async () => {
    await Promise.all(serves.map((serve) => serve.stop()));
    rmSync(dir, { recursive: true, force: true });
    await database.remove();
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    await close();
    throw failed.reason;
  }
  return { database, dir, serves, close };
}
