import { livePool, poolKey } from '../debug/live-pools.js';
import type { DatabaseQueryData } from './database-data.js';
import { isSingleStatement } from './collectors/sql-tokens.js';

export type ExplainResult =
  | { ok: true; driver: 'pg' | 'mysql2'; statement: string; rows: unknown[] }
  | { ok: false; status: number; message: string };

const EXPLAINABLE = /^\s*(?:\(\s*)*(select|insert|update|delete|with|values|table|replace)\b/i;

/**
 * EXPLAIN (the plan alone: never ANALYZE, so nothing runs) of a recorded query, with its recorded
 * parameters, through the app's own live pool to that database. Refused: a statement that is not one
 * SELECT, INSERT, UPDATE, DELETE, WITH, VALUES, TABLE or REPLACE; one with no live pool (the app was
 * reloaded or ended it); one the database cannot explain answers with its error.
 */
export async function explainQuery(query: DatabaseQueryData): Promise<ExplainResult> {
  const driver = query.driver === 'mysql2' ? 'mysql2' : 'pg';
  const sql = String(query.sql ?? '')
    .trim()
    .replace(/;\s*$/, '');
  if (!EXPLAINABLE.test(sql) || !isSingleStatement(sql, driver)) {
    return {
      ok: false,
      status: 422,
      message: 'Only one SELECT, INSERT, UPDATE, DELETE, WITH, VALUES, TABLE or REPLACE statement can be explained.',
    };
  }
  const database = query.database ?? { host: null, port: null, name: null };
  const key = poolKey(driver, database);
  const pool = livePool(key);
  if (pool === undefined) {
    return {
      ok: false,
      status: 409,
      message: `No live connection pool to ${key} in this server: the app was reloaded or closed it since the query ran. Run the request again, then explain its query.`,
    };
  }
  const statement = `EXPLAIN ${sql}`;
  try {
    return {
      ok: true,
      driver,
      statement,
      rows: await pool.run(statement, Array.isArray(query.params) ? query.params : []),
    };
  } catch (error) {
    return {
      ok: false,
      status: 422,
      message: `The database could not explain this statement: ${String((error as Error)?.message ?? error)}`,
    };
  }
}
