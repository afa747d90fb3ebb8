import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { waitFor } from './poll.js';
import { asAccount, freePort, removedAtExit, runAs, serverAccount, serverFolder } from './temp-database-server.js';

export interface TempMariaDb {
  /** mysql://app:<password>@127.0.0.1:<port>/app */
  url: string;
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** stops the server (by its PID) and deletes its folder */
  remove(): Promise<void>;
}

export const MARIADB_PASSWORD = 'appkernel-maria-test';
const SERVER = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'];
const INSTALL = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'];

/**
 * A real MariaDB for tests, from Debian's mariadb-server package (.ci/run installs it): a throwaway
 * server in a temporary folder on 127.0.0.1 and a free port, started here and stopped by its PID,
 * with a database `app` and a user `app` (password MARIADB_PASSWORD) allowed from 127.0.0.1.
 * Start one per test file: it takes a few seconds.
 */
export async function startTempMariaDb(): Promise<TempMariaDb> {
  const server = SERVER.find(existsSync);
  const install = INSTALL.find(existsSync);
  if (!server || !install)
    throw new Error(
      "No MariaDB server binaries (mariadbd, mariadb-install-db): install Debian's mariadb-server package (.ci/run does).",
    );
  const user = serverAccount('mysql');
  const root = serverFolder('appkernel-mariadb-', 0o755, user);
  const data = join(root, 'data');
  const socket = join(root, 'mysqld.sock');
  runAs(
    user,
    install,
    [
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=socket',
      '--skip-test-db',
      '--skip-name-resolve',
    ],
    120_000,
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    server,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${socket}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--skip-name-resolve',
      `--pid-file=${join(root, 'mariadbd.pid')}`,
      '--innodb-buffer-pool-size=16M',
      '--skip-log-bin',
      `--log-error=${join(root, 'error.log')}`,
    ],
    { stdio: 'ignore', ...asAccount(user) },
  );
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const removeNow = removedAtExit(root, () => {
    if (!exited && child.pid !== undefined) child.kill('SIGKILL');
  });
  let admin: Connection | null = null;
  // unix_socket authentication: the account named like the user this process runs as
  const connect = async () =>
    (admin = exited
      ? null
      : await createConnection({ socketPath: socket, user: userInfo().username }).catch(() => null)) !== null || exited;
  if (!(await waitFor(connect, 60_000)) || admin === null) {
    removeNow();
    throw new Error(`mariadbd did not start: ${exited ? 'it exited' : 'no connection within 60 s'}`);
  }
  const db: Connection = admin;
  try {
    await db.query('CREATE DATABASE app');
    await db.query(`CREATE USER 'app'@'127.0.0.1' IDENTIFIED BY '${MARIADB_PASSWORD}'`);
    await db.query("GRANT ALL ON app.* TO 'app'@'127.0.0.1'");
  } finally {
    await db.end();
  }
  return {
    url: `mysql://app:${MARIADB_PASSWORD}@127.0.0.1:${port}/app`,
    host: '127.0.0.1',
    port,
    user: 'app',
    password: MARIADB_PASSWORD,
    database: 'app',
    async remove() {
      if (!exited && child.pid !== undefined) child.kill('SIGTERM');
      await waitFor(() => exited, 30_000);
      removeNow();
    },
  };
}
