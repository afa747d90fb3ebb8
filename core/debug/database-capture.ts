import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { setDatabaseCaptureSettings, type DatabaseCaptureSettings } from './database-capture-settings.js';
import { startMysql2Capture, stopMysql2Capture } from './mysql2-query-capture.js';
import { forgetAppFrames } from './app-frame.js';
import { forgetPools } from './live-pools.js';
import { rememberMysql2Pools, type Mysql2PoolClass } from './mysql2-pools.js';
import { noteMysql2Statements, type Mysql2StatementClass } from './mysql2-statements.js';
import { wrapPgModule, type ParametersOf, type PgModule } from './pg-query-capture.js';

export { DATABASE_COLLECTOR, QueryRecord, type QueryEntry } from './database-query.js';
export type { DatabaseCaptureSettings } from './database-capture-settings.js';

const PG_ENTRY = `${sep}node_modules${sep}pg${sep}lib${sep}index.js`;
const MYSQL2_POOL = `${sep}node_modules${sep}mysql2${sep}lib${sep}base${sep}pool.js`;
const MYSQL2_CONNECTION = `${sep}node_modules${sep}mysql2${sep}lib${sep}base${sep}connection.js`;
const moduleCache = createRequire(import.meta.url).cache;

/**
 * Records the queries of the app's database clients into the request that runs them, from now on:
 * mysql2 through its TracingChannels; pg (which publishes none yet) through a wrapper of each `pg`
 * the process has loaded (an app that never imports pg gets none). Called again after the app is
 * loaded again, it wraps a pg the new app brought.
 */
export function startDatabaseCapture(settings: DatabaseCaptureSettings): void {
  setDatabaseCaptureSettings(settings);
  forgetPools();
  forgetAppFrames();
  startMysql2Capture();
  wrapLoadedPg();
}

/** Stops recording queries: the Database panel is then empty; the pg wrappers only pass through. */
export function stopDatabaseCapture(): void {
  setDatabaseCaptureSettings(null);
  stopMysql2Capture();
}

/** Wraps every `pg` in the module cache (pg is CommonJS: an ES import of it is cached there too); the count wrapped. */
export function wrapLoadedPg(): number {
  let count = 0;
  for (const [file, module] of Object.entries(moduleCache)) {
    if (
      file.endsWith(PG_ENTRY) &&
      module?.loaded &&
      wrapPgModule(module.exports as PgModule, parametersOf(module.require.bind(module)))
    )
      count++;
    else if (file.endsWith(MYSQL2_POOL) && module?.loaded) {
      rememberMysql2Pools(module.exports as Mysql2PoolClass);
      noteMysql2Statements(module.exports as Mysql2StatementClass);
    } else if (file.endsWith(MYSQL2_CONNECTION) && module?.loaded)
      noteMysql2Statements(module.exports as Mysql2StatementClass);
  }
  return count;
}

function parametersOf(load: (id: string) => unknown): ParametersOf | undefined {
  try {
    return load('./connection-parameters') as ParametersOf;
  } catch {
    return undefined;
  }
}
