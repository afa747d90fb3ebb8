import type pg from 'pg';
import { PROFILES_TABLE } from './postgres-schema.js';

/** One profile as a row of the profiles table, its stored form's JSON as UTF-8 in `body`. */
export interface ProfileRow {
  token: string;
  time: number;
  status: number;
  ip: string;
  method: string;
  url: string;
  duration: number;
  instance: string;
  profiler: boolean;
  bytes: number;
  route: string | null;
  body: Uint8Array;
}

const COLUMNS = ['token', 'time', 'status', 'ip', 'method', 'url', 'duration', 'instance', 'profiler', 'bytes', 'route', 'body'] as const;
/** rows per INSERT: a batch is one statement, one round trip */
export const BATCH_ROWS = 500;

const placeholders = new Map<number, string>();

/** `INSERT … VALUES ($1, …), …` for `rows` rows, made once per size. */
function insertText(rows: number): string {
  let text = placeholders.get(rows);
  if (text === undefined) {
    const values = Array.from({ length: rows }, (_, row) => `(${COLUMNS.map((_, i) => `$${row * COLUMNS.length + i + 1}`).join(', ')})`);
    text = `INSERT INTO ${PROFILES_TABLE} (${COLUMNS.join(', ')}) VALUES ${values.join(', ')} ON CONFLICT (token) DO NOTHING RETURNING token`;
    if (rows === BATCH_ROWS || rows === 1) placeholders.set(rows, text);
  }
  return text;
}

/**
 * Inserts the rows in one statement; resolves to the tokens written (a token another instance
 * holds is left as it is). A full batch is a prepared statement: the server parses and plans
 * its 6,000 parameters once per connection.
 */
export async function insertRows(db: pg.Pool | pg.ClientBase, rows: readonly ProfileRow[]): Promise<string[]> {
  const values: unknown[] = [];
  for (const row of rows) {
    values.push(row.token, row.time, row.status, row.ip, row.method, row.url, row.duration, row.instance, row.profiler, row.bytes, row.route,
      Buffer.isBuffer(row.body) ? row.body : Buffer.from(row.body.buffer, row.body.byteOffset, row.body.byteLength));
  }
  const name = rows.length === BATCH_ROWS ? `appkernel_insert_${BATCH_ROWS}` : undefined;
  const result = await db.query<{ token: string }>({ text: insertText(rows.length), values, ...(name ? { name } : {}) });
  return result.rows.map((row) => row.token);
}
