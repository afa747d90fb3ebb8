import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';
import { waitFor } from '../../helpers/poll.js';
import { serveForTest, type TestServer } from '../../helpers/serve.js';
import { startTempMariaDb, type TempMariaDb } from '../../helpers/temp-mariadb.js';
import { sql, startTempPostgres, type TempPostgres } from '../../helpers/temp-postgres.js';

const modules = (path: string) => JSON.stringify(resolve(process.cwd(), 'node_modules', path));

/** A TypeScript app (its frames come back through source maps) that queries PostgreSQL through pg, pg.Pool and Kysely, and MariaDB through mysql2. */
export const databaseApp = (pgUrl: string, maria: TempMariaDb) => `import pg from ${modules('pg/lib/index.js')};
import mysql from ${modules('mysql2/promise.js')};
import { Kysely, PostgresDialect } from ${modules('kysely/dist/esm/index.js')};
import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};

interface Row { name: string }
const PG_URL: string = ${JSON.stringify(pgUrl)};
const pool = new pg.Pool({ connectionString: PG_URL, max: 4, idleTimeoutMillis: 200, allowExitOnIdle: true });
const kysely = new Kysely<{ users: { id: number; name: string; password: string } }>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: PG_URL, max: 2, idleTimeoutMillis: 200, allowExitOnIdle: true }) }),
});
// one client: a request's query waits for the client another request frees
const onePool = new pg.Pool({ connectionString: PG_URL, max: 1, idleTimeoutMillis: 200, allowExitOnIdle: true });
const maria = mysql.createPool({ host: '127.0.0.1', port: ${maria.port}, user: 'app', password: ${JSON.stringify(maria.password)}, database: 'app', connectionLimit: 2, maxIdle: 0, idleTimeout: 200 });
// each version of the app (a reload loads it again) adds its pools' closing
((globalThis as { databaseAppClosers?: (() => Promise<unknown>)[] }).databaseAppClosers ??= []).push(() => Promise.all([pool.end(), onePool.end(), kysely.destroy(), maria.end()]));

export const app = createApp({ name: 'db' })
  // a guard and the controller after it run the same statement: each step takes its first run's stack
  .guard({ name: 'member', path: '^/guarded', check: async () => { await pool.query('SELECT name FROM users WHERE id = $1', [1]); return true; } }) // the guard's line
  .get('guarded', '/guarded', async function guarded() {
    await pool.query('SELECT name FROM users WHERE id = $1', [2]); // the guarded controller's line
    await pool.query('SELECT name FROM users WHERE id = $1', [3]);
    return { ran: 3 };
  })
  .get('direct', '/pg/direct', async function direct() {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const result = await client.query('SELECT $1::int + 1 AS n', [41]);
      return { n: result.rows[0].n };
    } finally {
      await client.end();
    }
  })
  .get('pool', '/pg/pool', async function poolQuery() {
    const result = await pool.query<Row>('SELECT name FROM users WHERE id = $1', [1]);
    return { name: result.rows[0]?.name };
  })
  .get('kysely', '/pg/kysely', async function kyselyQuery() {
    const rows = await kysely.selectFrom('users').select('name').where('id', '=', 2).execute();
    return { name: rows[0]?.name };
  })
  .get('maria', '/maria', async function mariaQuery() {
    const [rows] = await maria.query('SELECT name FROM users WHERE id = ?', [1]);
    const [sum] = await maria.execute('SELECT ? + 1 AS n', [41]);
    return { rows, sum };
  })
  .get('n_plus_one', '/n-plus-one', async function nPlusOne() {
    const names: string[] = [];
    for (let id = 1; id <= 20; id++) {
      const result = await pool.query<Row>('SELECT name FROM users WHERE id = $1', [id]); // the N+1 line
      names.push(result.rows[0]?.name ?? '');
    }
    return { names: names.length };
  })
  .get('places', '/places', async function places() {
    const byId = 'SELECT name FROM users WHERE id = $1';
    await pool.query(byId, [1]); // place A
    await pool.query(byId, [2]); // place B
    await pool.query(byId, [3]); // place C
    await pool.query(byId, [4]); // place D
    const connection = await maria.getConnection();
    try {
      for (let id = 1; id <= 5; id++) await connection.execute('SELECT name FROM users WHERE id = ?', [id]); // the mysql2 loop line
    } finally {
      connection.release();
    }
    for (let id = 1; id <= 4; id++) await maria.query('SELECT id FROM users WHERE id = ?', [id]); // the mysql2 pool loop line
    return { ran: 13 };
  })
  .get('parallel', '/parallel', async function parallel() {
    const byId = 'SELECT name FROM users WHERE id = $1';
    await Promise.all([1, 2, 3].map((id) => onePool.query(byId, [id]))); // the parallel pg line
    await Promise.all([1, 2, 3].map((id) => maria.query('SELECT name FROM users WHERE id = ?', [id]))); // the parallel mysql2 line
    return { ran: 6 };
  })
  .get('failing', '/pg/failing', async function failing() {
    try { await pool.query('SELECT * FROM no_such_table'); } catch (error) { return { failed: (error as Error).message }; }
    return { failed: false };
  })
  .get('clientFailing', '/pg/client-failing', async function clientFailing() {
    class AppPromise<T> extends Promise<T> {}
    // pg deprecates a Promise of the app's own (pg@9 drops it); while it takes one, its queries answer with it
    const appClient = new pg.Client({ connectionString: PG_URL, Promise: AppPromise });
    const client = new pg.Client({ connectionString: PG_URL });
    await Promise.all([appClient.connect(), client.connect()]);
    try {
      const pending = appClient.query('SELECT 1');
      const appPromise = pending instanceof AppPromise;
      await pending;
      try { await client.query('SELECT * FROM no_such_table'); } catch (error) { return { appPromise, failed: (error as Error).message, stack: (error as Error).stack }; }
      return { appPromise, failed: false };
    } finally {
      await Promise.all([appClient.end(), client.end()]);
    }
  })
  .get('secret', '/pg/secret', async function secret() {
    const result = await pool.query('SELECT id FROM users WHERE name = $1 AND password = $2', ['ann', 'hunter2-very-secret']);
    await maria.query("SELECT 1 FROM users WHERE password = 'maria-literal-secret'");
    return { found: result.rowCount };
  })
  .get('page', '/page/{times}', async function page({ params }) {
    for (let id = 1; id <= Number(params.times); id++) await pool.query('SELECT name FROM users WHERE id = $1', [id]);
    return '<!DOCTYPE html><html><head><title>db</title></head><body>queried</body></html>';
  })
  .get('tagged', '/tagged/{tag}', async function tagged({ params }) {
    await pool.query('SELECT pg_sleep(0.05), $1::text AS tag', [params.tag]);
    await maria.query('SELECT SLEEP(0.05), ? AS tag', [params.tag]);
    return { tag: params.tag };
  })
  .get('queued', '/queued/{tag}', async function queued({ params }) {
    await onePool.query('SELECT pg_sleep(0.05), $1::text AS tag', [params.tag]); // the queued line
    await new Promise<void>((resolve, reject) => onePool.connect((error, client, done) => {
      if (error || !client) return reject(error);
      client.query('SELECT pg_sleep(0.05), $1::text AS queued_tag', [params.tag]).then(() => { done(); resolve(); }, (failed) => { done(); reject(failed); }); // the queued callback line
    }));
    return { tag: params.tag };
  });
`;

export interface DatabaseServer extends TestServer {
  postgres: TempPostgres;
  maria: TempMariaDb;
  appFile: string;
  /** the line of the app file holding `marker` */
  lineOf(marker: string): number;
  remove(): Promise<void>;
}

/** Both databases (a users table each, rows 1 to 20), the app and a dev server on it. */
export async function serveDatabaseApp(
  options: { slowQueryMs?: number; queryStacks?: number; store?: 'folder' | 'postgres' } = {},
): Promise<DatabaseServer> {
  const [postgres, maria] = await Promise.all([startTempPostgres(), startTempMariaDb()]);
  await sql(postgres.url, 'CREATE TABLE users (id int PRIMARY KEY, name text NOT NULL, password text NOT NULL)');
  await sql(postgres.url, "INSERT INTO users SELECT i, 'user' || i, 'pw' || i FROM generate_series(1, 20) i");
  const admin = await (await import('mysql2/promise')).createConnection({
    host: '127.0.0.1',
    port: maria.port,
    user: 'app',
    password: maria.password,
    database: 'app',
  });
  await admin.query('CREATE TABLE users (id int PRIMARY KEY, name text NOT NULL, password text NOT NULL)');
  await admin.query("INSERT INTO users VALUES (1, 'ann', 'pw1'), (2, 'bob', 'pw2')");
  await admin.end();
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-db-app-'));
  const appFile = join(dir, 'app.config.ts');
  writeFileSync(appFile, databaseApp(postgres.url, maria));
  const store = options.store === 'postgres' ? { store: await postgres.createDatabase() } : {};
  const server = await serveForTest({
    appFile,
    root: dir,
    ...store,
    ...(options.slowQueryMs === undefined ? {} : { slowQueryMs: options.slowQueryMs }),
    ...(options.queryStacks === undefined ? {} : { queryStacks: options.queryStacks }),
  });
  const lines = readFileSync(appFile, 'utf8').split('\n');
  return {
    ...server,
    postgres,
    maria,
    appFile,
    lineOf: (marker) => lines.findIndex((line) => line.includes(marker)) + 1,
    async remove() {
      await server.stop();
      const closers = (globalThis as { databaseAppClosers?: (() => Promise<unknown>)[] }).databaseAppClosers ?? [];
      await Promise.all(closers.splice(0).map((close) => close()));
      // pg's pool.end() settles before its clients' sockets close: a server stopped first would fail them
      const others =
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()';
      await waitFor(async () => (await sql(postgres.url, others)).rows[0].n === 0, 10_000);
      await Promise.all([postgres.remove(), maria.remove()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
