import type pg from 'pg';
import { PROFILES_TABLE } from './postgres-schema.js';

/**
 * One profile as a row of the profiles table, its stored form's JSON as UTF-8 in `body`. The body
 * goes uncompressed: the server's lz4 (postgres-schema.ts) costs it a fraction of the CPU that
 * deflating each profile on its own costs this thread, and keeps the row inline all the same.
 */
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

/** rows per INSERT: a batch is one statement, one round trip */
export const BATCH_ROWS = 500;

/** PostgreSQL's type oid of bytea, named in a binary array's header */
const BYTEA_OID = 17;

/**
 * One statement whatever the batch's size, prepared once per connection: a column is one array
 * parameter. A few rows at a time (a server at a moderate pace) then cost no parse and plan of
 * their own, and a full batch binds 12 parameters instead of 6,000.
 */
const INSERT = {
  name: 'appkernel_insert_rows',
  text: `INSERT INTO ${PROFILES_TABLE} (token, time, status, ip, method, url, duration, instance, profiler, bytes, route, body)
    SELECT * FROM unnest($1::text[], $2::float8[], $3::int[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::text[], $9::bool[], $10::int[], $11::text[], $12::bytea[])
    ON CONFLICT (token) DO NOTHING RETURNING token`,
};

/**
 * The bodies as a bytea[] in PostgreSQL's binary array form, which the client sends as is: as a
 * text array literal, each body would be written out in hex and parsed back by the server.
 */
export function binaryByteaArray(bodies: readonly Uint8Array[]): Buffer {
  let size = 20;
  for (const body of bodies) size += 4 + body.byteLength;
  const out = Buffer.allocUnsafe(size);
  let at = out.writeInt32BE(1, 0);
  at = out.writeInt32BE(0, at);
  at = out.writeInt32BE(BYTEA_OID, at);
  at = out.writeInt32BE(bodies.length, at);
  at = out.writeInt32BE(1, at);
  for (const body of bodies) {
    at = out.writeInt32BE(body.byteLength, at);
    out.set(body, at);
    at += body.byteLength;
  }
  return out;
}

/**
 * Inserts the rows in one statement; resolves to the tokens written (a token another instance
 * holds is left as it is).
 */
export async function insertRows(db: pg.Pool | pg.ClientBase, rows: readonly ProfileRow[]): Promise<string[]> {
  const values = [
    rows.map((r) => r.token), rows.map((r) => r.time), rows.map((r) => r.status), rows.map((r) => r.ip), rows.map((r) => r.method),
    rows.map((r) => r.url), rows.map((r) => r.duration), rows.map((r) => r.instance), rows.map((r) => r.profiler), rows.map((r) => r.bytes),
    rows.map((r) => r.route), binaryByteaArray(rows.map((r) => r.body)),
  ];
  const result = await db.query<{ token: string }>({ ...INSERT, values });
  return result.rows.map((row) => row.token);
}
