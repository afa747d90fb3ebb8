import type pg from 'pg';
import { packBlocks } from './postgres-blocks.js';
import { BLOCKS_TABLE, PROFILES_TABLE, URLS_TABLE } from './postgres-schema.js';

/**
 * One profile as a row of the profiles table; `body`, its stored form's JSON as UTF-8 (no raw line
 * feed), goes to a row of the blocks table with the bodies of the profiles written with it
 * (postgres-blocks.ts), and the profile row says which block and line.
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
 * their own, and a full batch binds 15 parameters instead of thousands. The blocks take their ids
 * from the sequence first, so that each profile row can name its block's. The batch's distinct
 * URLs not yet in the URLs table are added to it; a profile row names its URL by its MD5.
 */
const INSERT = {
  name: 'appkernel_insert_rows',
  text: `WITH ids AS MATERIALIZED (SELECT n, nextval('${BLOCKS_TABLE}_id_seq') AS id FROM generate_series(1, cardinality($14::bytea[])) AS n),
    blocks AS (INSERT INTO ${BLOCKS_TABLE} (id, newest, body)
      SELECT ids.id, b.newest, b.body FROM unnest($14::bytea[], $15::float8[]) WITH ORDINALITY AS b(body, newest, n) JOIN ids ON ids.n = b.n),
    distinct_urls AS (SELECT md5(url)::uuid AS hash, url FROM (SELECT DISTINCT url FROM unnest($6::text[]) AS d(url)) AS d),
    urls AS (INSERT INTO ${URLS_TABLE} (hash, url) SELECT hash, url FROM distinct_urls ON CONFLICT (hash) DO NOTHING)
    INSERT INTO ${PROFILES_TABLE} (token, time, status, ip, method, url_hash, duration, instance, profiler, bytes, route, block, slot)
    SELECT r.token, r.time, r.status, r.ip, r.method, md5(r.url)::uuid, r.duration, r.instance, r.profiler, r.bytes, r.route, ids.id, r.slot
      FROM unnest($1::text[], $2::float8[], $3::int[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::text[], $9::bool[], $10::int[], $11::text[], $12::int[], $13::int[])
        AS r(token, time, status, ip, method, url, duration, instance, profiler, bytes, route, block, slot)
      JOIN ids ON ids.n = r.block
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

const NEEDS_ESCAPE = /["\\]/;

/**
 * A text[] parameter as PostgreSQL's array literal, each element quoted (so that none reads as
 * NULL or splits), null as NULL: what the client's own conversion gives, without its two
 * replacements per element.
 */
export function textArray(values: readonly (string | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    parts[i] = value === null ? 'NULL' : NEEDS_ESCAPE.test(value) ? `"${value.replace(/["\\]/g, '\\$&')}"` : `"${value}"`;
  }
  return `{${parts.join(',')}}`;
}

/** A numeric or boolean array parameter as an array literal (a number's shortest form reads back exactly). */
export function plainArray(values: readonly (number | boolean)[]): string {
  return `{${values.join(',')}}`;
}

/**
 * Inserts the rows and their blocks in one statement; resolves to the tokens written (a token
 * another instance holds is left as it is).
 */
export async function insertRows(db: pg.Pool | pg.ClientBase, rows: readonly ProfileRow[]): Promise<string[]> {
  const packed = packBlocks(rows.map((r) => r.body), rows.map((r) => r.time));
  const values = [
    textArray(rows.map((r) => r.token)), plainArray(rows.map((r) => r.time)), plainArray(rows.map((r) => r.status)), textArray(rows.map((r) => r.ip)),
    textArray(rows.map((r) => r.method)), textArray(rows.map((r) => r.url)), plainArray(rows.map((r) => r.duration)), textArray(rows.map((r) => r.instance)),
    plainArray(rows.map((r) => r.profiler)), plainArray(rows.map((r) => r.bytes)), textArray(rows.map((r) => r.route)), plainArray(packed.blockOf),
    plainArray(packed.slotOf), binaryByteaArray(packed.blocks), plainArray(packed.newest),
  ];
  const result = await db.query<{ token: string }>({ ...INSERT, values });
  return result.rows.map((row) => row.token);
}
