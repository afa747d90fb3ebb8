import type pg from 'pg';
import { boolArray, byteaArray, float8Array, int4Array, textArray } from './postgres-binary-arrays.js';
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

/**
 * One statement whatever the batch's size, prepared once per connection: a column is one array
 * parameter, in binary form (postgres-binary-arrays.ts). A few rows at a time (a server at a
 * moderate pace) then cost no parse and plan of their own, and a full batch binds 16 parameters
 * instead of thousands. The blocks take their ids from the sequence first, so that each profile row
 * can name its block's. The batch's distinct URLs are sent once each, those not yet in the URLs
 * table added to it; a profile row names its URL by position in that list, and is stored naming
 * it by its MD5.
 *
 * A token is the key: a plain INSERT fails as a whole when another instance took one of the
 * batch's tokens, and the batch is then sent again as KEEPING_INSERT. ON CONFLICT's check before
 * each row cost the database a tenth of the insert, for collisions that reserved tokens make rare.
 */
const rowsText = (
  tail: string,
) => `WITH ids AS MATERIALIZED (SELECT n, nextval('${BLOCKS_TABLE}_id_seq') AS id FROM generate_series(1, cardinality($14::bytea[])) AS n),
    blocks AS (INSERT INTO ${BLOCKS_TABLE} (id, newest, body)
      SELECT ids.id, b.newest, b.body FROM unnest($14::bytea[], $15::float8[]) WITH ORDINALITY AS b(body, newest, n) JOIN ids ON ids.n = b.n),
    urls AS MATERIALIZED (SELECT n, md5(url)::uuid AS hash, url FROM unnest($6::text[]) WITH ORDINALITY AS u(url, n)),
    new_urls AS (INSERT INTO ${URLS_TABLE} (hash, url) SELECT hash, url FROM urls ON CONFLICT (hash) DO NOTHING)
    INSERT INTO ${PROFILES_TABLE} (token, time, status, ip, method, url_hash, duration, instance, profiler, bytes, route, block, slot)
    SELECT r.token, r.time, r.status, r.ip, r.method, urls.hash, r.duration, r.instance, r.profiler, r.bytes, r.route, ids.id, r.slot
      FROM unnest($1::text[], $2::float8[], $3::int[], $4::text[], $5::text[], $16::int[], $7::float8[], $8::text[], $9::bool[], $10::int[], $11::text[], $12::int[], $13::int[])
        AS r(token, time, status, ip, method, url, duration, instance, profiler, bytes, route, block, slot)
      JOIN ids ON ids.n = r.block JOIN urls ON urls.n = r.url
    ${tail}`;

const INSERT = { name: 'appkernel_insert_rows', text: rowsText('') };
const KEEPING_INSERT = {
  name: 'appkernel_insert_rows_keeping',
  text: rowsText('ON CONFLICT (token) DO NOTHING RETURNING token'),
};
const TOKEN_KEY = `${PROFILES_TABLE}_pkey`;

/**
 * A writing connection plans the insert once, not at every call: PostgreSQL plans a prepared
 * statement for its parameters' values until a generic plan looks no dearer, which the arrays'
 * unknown lengths never let it see, and planning this statement cost about a fifth of a small
 * batch's time. For the `onConnect` of a pool that only writes: the setting holds for every
 * statement with parameters, and a search planned once for any values walks the wrong index. A
 * server before PostgreSQL 12, which lacks the setting, keeps planning.
 */
export async function planInsertsOnce(client: pg.ClientBase): Promise<void> {
  await client.query('SET plan_cache_mode = force_generic_plan').catch(() => {});
}

/** The batch's distinct URLs, in order of first use, and each row's position in them (1-based, as SQL's ordinality). */
function distinctUrls(rows: readonly ProfileRow[]): { urls: string[]; urlOf: number[] } {
  const positions = new Map<string, number>();
  const urls: string[] = [];
  const urlOf = rows.map(({ url }) => {
    let at = positions.get(url);
    if (at === undefined) {
      at = urls.push(url);
      positions.set(url, at);
    }
    return at;
  });
  return { urls, urlOf };
}

/**
 * Inserts the rows and their blocks in one statement; resolves to the tokens written (a token
 * another instance holds is left as it is, its row not written).
 */
export async function insertRows(db: pg.Pool | pg.ClientBase, rows: readonly ProfileRow[]): Promise<string[]> {
  const packed = packBlocks(
    rows.map((r) => r.body),
    rows.map((r) => r.time),
  );
  const { urls, urlOf } = distinctUrls(rows);
  const values = [
    textArray(rows.map((r) => r.token)),
    float8Array(rows.map((r) => r.time)),
    int4Array(rows.map((r) => r.status)),
    textArray(rows.map((r) => r.ip)),
    textArray(rows.map((r) => r.method)),
    textArray(urls),
    float8Array(rows.map((r) => r.duration)),
    textArray(rows.map((r) => r.instance)),
    boolArray(rows.map((r) => r.profiler)),
    int4Array(rows.map((r) => r.bytes)),
    textArray(rows.map((r) => r.route)),
    int4Array(packed.blockOf),
    int4Array(packed.slotOf),
    byteaArray(packed.blocks),
    float8Array(packed.newest),
    int4Array(urlOf),
  ];
  try {
    await db.query({ ...INSERT, values });
    return rows.map((r) => r.token);
  } catch (error) {
    if (
      (error as { code?: string; constraint?: string }).code !== '23505' ||
      (error as { constraint?: string }).constraint !== TOKEN_KEY
    )
      throw error;
  }
  const result = await db.query<{ token: string }>({ ...KEEPING_INSERT, values });
  return result.rows.map((row) => row.token);
}
