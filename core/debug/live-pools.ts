import type { DatabaseTarget } from './database-query.js';

/** A connection pool (or client) of the app's, able to run one more statement. */
export interface LivePool {
  driver: 'pg' | 'mysql2';
  /** runs `sql` with `params`; the rows as the driver gives them */
  run(sql: string, params: readonly unknown[]): Promise<unknown[]>;
  /** false once the app ended it */
  open(): boolean;
}

const pools = new Map<string, WeakRef<LivePool>>();

/** "pg 127.0.0.1:5432/app": the database a recorded query went to (the user is left out: mysql2 does not publish it). */
export function poolKey(driver: 'pg' | 'mysql2', target: Pick<DatabaseTarget, 'host' | 'port' | 'name'>): string {
  return `${driver} ${target.host ?? ''}:${target.port ?? ''}/${target.name ?? ''}`;
}

/** Remembers the app's pool for its database, weakly: a pool the app drops is not kept alive for EXPLAIN. */
export function rememberPool(key: string, pool: LivePool): void {
  if (pools.get(key)?.deref() !== pool) pools.set(key, new WeakRef(pool));
}

/** The app's pool to this database that is still open; undefined when none is (the app reloaded, or ended it). */
export function livePool(key: string): LivePool | undefined {
  const pool = pools.get(key)?.deref();
  return pool !== undefined && pool.open() ? pool : undefined;
}

/** Forgets every pool: the app was loaded again, the old version's pools are not the app's anymore. */
export function forgetPools(): void {
  pools.clear();
}
