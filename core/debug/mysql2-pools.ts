import { databaseCaptureSettings } from './database-capture-settings.js';
import { poolKey, rememberPool, type LivePool } from './live-pools.js';
import { currentRecorder } from './request-scope.js';

type Method = (this: unknown, ...args: unknown[]) => unknown;

interface Mysql2Pool {
  _closed?: boolean;
  config?: { connectionConfig?: { host?: unknown; port?: unknown; database?: unknown; socketPath?: unknown } };
  query(sql: string, values: unknown[], callback: (error: unknown, rows: unknown) => void): unknown;
}

/** mysql2's lib/base/pool.js: the class every mysql2 pool (callback or promise) is. */
export interface Mysql2PoolClass {
  prototype: { getConnection?: Method };
}

const WRAPPED = Symbol.for('appkernel.db.pools');
const live = new WeakMap<Mysql2Pool, { key: string; pool: LivePool }>();

/**
 * Remembers each mysql2 pool a recorded request takes a connection from (its queries all do), so that
 * EXPLAIN runs through it: mysql2's TracingChannels name the database, not the pool.
 */
export function rememberMysql2Pools(poolClass: Mysql2PoolClass): void {
  const proto = poolClass?.prototype;
  if (!proto || typeof proto.getConnection !== 'function' || Object.hasOwn(proto.getConnection, WRAPPED)) return;
  const original = proto.getConnection;
  const getConnection = function (this: unknown, ...args: unknown[]): unknown {
    if (databaseCaptureSettings() !== null && currentRecorder() !== undefined) remember(this as Mysql2Pool);
    return original.apply(this, args);
  };
  Object.defineProperty(getConnection, WRAPPED, { value: true });
  proto.getConnection = getConnection;
}

function remember(mysqlPool: Mysql2Pool): void {
  let known = live.get(mysqlPool);
  if (known === undefined) {
    const config = mysqlPool.config?.connectionConfig ?? {};
    // as mysql2's tracing names the server (lib/tracing.js getServerContext)
    const host =
      typeof config.socketPath === 'string'
        ? config.socketPath
        : typeof config.host === 'string' && config.host
          ? config.host
          : 'localhost';
    const port =
      typeof config.socketPath === 'string'
        ? null
        : typeof config.port === 'number' && config.port
          ? config.port
          : 3306;
    const name = typeof config.database === 'string' && config.database !== '' ? config.database : null;
    known = {
      key: poolKey('mysql2', { host, port, name }),
      pool: {
        driver: 'mysql2',
        run: (sql, params) =>
          new Promise((resolve, reject) => {
            mysqlPool.query(sql, [...params], (error, rows) =>
              error ? reject(error) : resolve(Array.isArray(rows) ? rows : []),
            );
          }),
        open: () => mysqlPool._closed !== true,
      },
    };
    live.set(mysqlPool, known);
  }
  rememberPool(known.key, known.pool);
}
