import { chownSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { freePort, removedAtExit, runAs, serverAccount, serverFolder } from './temp-database-server.js';

export interface TempPostgres {
  /** a database of its own, e.g. postgres://postgres:pw@127.0.0.1:54321/appkernel_1 */
  url: string;
  /** another fresh database on the same server */
  createDatabase(): Promise<string>;
  /** stops the server (the data stays), as a database going away */
  stopServer(): void;
  /** starts it again on the same port */
  startServer(): void;
  /** stops the server and deletes its folder now (nothing when APPKERNEL_TEST_DATABASE_URL is used); otherwise that happens when the process exits */
  remove(): Promise<void>;
}

const BINARIES = ['initdb', 'pg_ctl'];

/** The folder of initdb and pg_ctl: PATH first, then Debian's /usr/lib/postgresql/<version>/bin, newest first. */
export function findPostgresBin(): string {
  const candidates = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => join(debian, v, 'bin')));
  }
  const found = candidates.find((dir) => BINARIES.every((b) => existsSync(join(dir, b))));
  if (!found)
    throw new Error(
      "No PostgreSQL server binaries (initdb, pg_ctl) in PATH or /usr/lib/postgresql/*/bin: install Debian's postgresql package (.ci/run does) or set APPKERNEL_TEST_DATABASE_URL.",
    );
  return found;
}

let databases = 0;
/** the throwaway server's superuser password: a wrong one must be refused */
export const PASSWORD = 'appkernel-test';

async function createDatabaseAt(adminUrl: string): Promise<string> {
  const name = `appkernel_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A real PostgreSQL for tests: APPKERNEL_TEST_DATABASE_URL when set (each call gets a fresh
 * database on it), otherwise a throwaway cluster in a temporary folder, listening on 127.0.0.1
 * only, its socket in that folder. Start one per test file: it takes a few seconds.
 */
export async function startTempPostgres(): Promise<TempPostgres> {
  const given = process.env.APPKERNEL_TEST_DATABASE_URL;
  if (given) {
    return {
      url: await createDatabaseAt(given),
      createDatabase: () => createDatabaseAt(given),
      stopServer: () => {
        throw new Error('stopServer() needs the throwaway server: unset APPKERNEL_TEST_DATABASE_URL');
      },
      startServer: () => {
        throw new Error('startServer() needs the throwaway server: unset APPKERNEL_TEST_DATABASE_URL');
      },
      remove: async () => {},
    };
  }
  const bin = findPostgresBin();
  const user = serverAccount('postgres');
  const root = serverFolder('appkernel-pg-', 0o700, user);
  const data = join(root, 'data');
  const port = await freePort();
  const pwfile = join(root, 'pw');
  writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user) chownSync(pwfile, user.uid, user.gid);
  runAs(user, join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=scram-sha-256',
    `--pwfile=${pwfile}`,
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${root} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60`;
  const start = () =>
    runAs(user, join(bin, 'pg_ctl'), ['start', '-D', data, '-w', '-t', '60', '-l', join(root, 'log'), '-o', options]);
  const stop = () => runAs(user, join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
  let running = false;
  const stopServer = () => {
    if (running) stop();
    running = false;
  };
  const startServer = () => {
    start();
    running = true;
  };
  startServer();
  const removeNow = removedAtExit(root, stopServer);
  const adminUrl = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;
  return {
    url: await createDatabaseAt(adminUrl),
    createDatabase: () => createDatabaseAt(adminUrl),
    stopServer,
    startServer,
    async remove() {
      stopServer();
      removeNow();
    },
  };
}

/** One statement on a connection of its own, closed after. */
export async function sql(url: string, text: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}
