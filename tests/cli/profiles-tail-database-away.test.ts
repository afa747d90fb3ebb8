import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openPostgresStorage, type PostgresStorage } from '../../core/profiler/storage/postgres-storage.js';
import { BIN } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { startTempPostgres, type TempPostgres } from '../helpers/temp-postgres.js';
import { profile404 } from '../core/profiler/fixtures.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';

const test = suite('app profiles tail on a PostgreSQL store: the database going away and coming back does not end it');
let database: TempPostgres;
let writer: PostgresStorage;

test.before(async () => {
  database = await startTempPostgres();
  writer = await openPostgresStorage({ url: database.url, instance: 'host-w:8001', onWarning: () => {} });
});

test.after(async () => {
  await writer.close();
  await database.remove();
});

async function store(token: string): Promise<void> {
  writer.writeBatch([storedEntry(profile404({ token, time: Date.now(), url: `http://127.0.0.1:8000/${token}` }))]);
  await writer.flush();
}

test('when the database restarts while tail runs, then tail says it is waiting, then back, prints the next profile, and Ctrl-C ends it with 0', async () => {
  const child = spawn(process.execPath, [BIN, 'profiles', 'tail', '--store', database.url], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let code: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve((code = c))));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    assert.ok(await waitFor(() => stderr.includes('Waiting for new profiles'), 15_000), stderr);
    await store('a0a0a1');
    assert.ok(await waitFor(() => stdout.includes('a0a0a1'), 10_000), stdout);
    database.stopServer();
    assert.ok(
      await waitFor(() => /cannot be reached.*Waiting for it to come back/.test(stderr) || code !== undefined, 15_000),
      stderr,
    );
    assert.is(code, undefined, `tail is still running: ${stderr}`);
    database.startServer();
    await store('a0a0a2');
    assert.ok(await waitFor(() => stdout.includes('a0a0a2'), 15_000), `${stdout}\n${stderr}`);
    assert.match(stderr, /The profile database is back\./);
    assert.is(stderr.match(/Waiting for it to come back/g)?.length, 1, 'said once');
    child.kill('SIGINT');
    assert.is(await exited, 0);
  } finally {
    clearTimeout(killer);
    child.kill('SIGKILL');
  }
});

test.run();
