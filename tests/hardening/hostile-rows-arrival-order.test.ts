import { spawn } from 'node:child_process';
import pg from 'pg';
import { request } from 'undici';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN, type ServeProcess, runAppInProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { fetchText } from '../helpers/serve.js';
import { startServesOnPostgres, STORE_OPTION, type ServesOnPostgres } from '../helpers/serves-on-postgres.js';
import type { TempPostgres } from '../helpers/temp-postgres.js';

const test = suite(
  'rows dated ahead in a shared PostgreSQL store (plain SQL): latest, the live page and tail follow arrival',
);
const TEN_YEARS_MS = 10 * 365 * 86_400_000;
let shared: ServesOnPostgres;
let database: TempPostgres;
let a: ServeProcess;
let b: ServeProcess;

test.before(async () => {
  shared = await startServesOnPostgres('appkernel-hostile-rows-', [STORE_OPTION, STORE_OPTION]);
  ({
    database,
    serves: [a, b],
  } = shared);
});

test.after(async () => {
  await shared?.close();
});

/** A copy of the row of `from` under `token`, dated `aheadMs` after it, written with plain SQL as anyone with write access could. */
async function plantRow(from: string, token: string, aheadMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const columns = (
      await client.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'appkernel_profiles' AND column_name NOT IN ('token', 'time', 'seq')`,
      )
    ).rows
      .map((row) => `"${row.column_name}"`)
      .join(', ');
    await client.query(
      `INSERT INTO appkernel_profiles (token, time, ${columns}) SELECT $1, time + $2, ${columns} FROM appkernel_profiles WHERE token = $3`,
      [token, aheadMs, from],
    );
  } finally {
    await client.end();
  }
}

/** The token of the row the database received last (its identity column), the profiler's own left out. */
async function lastArrived(): Promise<string> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (
      await client.query<{ token: string }>(
        'SELECT token FROM appkernel_profiles WHERE NOT profiler ORDER BY seq DESC LIMIT 1',
      )
    ).rows[0].token;
  } finally {
    await client.end();
  }
}

async function tokenOf(url: string): Promise<string> {
  const response = await fetchText(url);
  return response.headers['x-debug-token'];
}

test('when one row is ten years ahead and another five minutes ahead, then every server and the CLI show the real latest, and live and tail show all 5 new requests', async () => {
  const first = await tokenOf(`${a.base}/hello/first`);
  assert.ok(
    await waitFor(async () => (await fetchText(`${b.base}/_profiler/${first}.json`)).status === 200, 10_000),
    'stored',
  );
  await plantRow(first, 'fff001', TEN_YEARS_MS);
  await plantRow(first, 'fff002', 5 * 60_000);

  const live = await request(`${b.base}/_profiler/live`);
  let events = '';
  live.body.setEncoding('utf8');
  live.body.on('data', (chunk: string) => (events += chunk));
  const tail = spawn(process.execPath, [BIN, 'profiles', 'tail', '--json', '--store', database.url], {
    env: { ...process.env, NO_COLOR: '1' },
  });
  let tailed = '';
  let tailErr = '';
  tail.stdout.on('data', (d) => (tailed += d));
  tail.stderr.on('data', (d) => (tailErr += d));
  const killer = setTimeout(() => tail.kill('SIGKILL'), 60_000);
  try {
    assert.ok(await waitFor(() => tailErr.includes('Waiting for new profiles'), 15_000), tailErr);
    assert.ok(await waitFor(() => events.includes('retry:'), 5_000), 'the live stream is open');
    const fresh: string[] = [];
    for (let i = 0; i < 5; i++) fresh.push(await tokenOf(`${(i % 2 ? b : a).base}/hello/new${i}`));
    assert.ok(
      await waitFor(() => fresh.every((t) => events.includes(t)), 15_000),
      `the live page shows all 5: ${events}`,
    );
    assert.ok(await waitFor(() => fresh.every((t) => tailed.includes(t)), 15_000), `tail prints all 5: ${tailed}`);
    assert.not.ok(events.includes('fff00') || tailed.includes('fff00'), 'rows planted before they began are not new');

    const newest = await lastArrived();
    assert.ok(fresh.includes(newest), 'one of the new requests reached the store last');
    for (const serve of [a, b]) {
      const latest = JSON.parse((await fetchText(`${serve.base}/_profiler/latest.json`)).body) as { token: string };
      assert.is(latest.token, newest, `${serve.base}/_profiler/latest is the last to arrive`);
    }
    const shown = await runAppInProcess(['profiles', 'show', 'latest', '--json', '--store', database.url]);
    assert.is(shown.code, 0, shown.stderr);
    assert.is((JSON.parse(shown.stdout) as { token: string }).token, newest, 'profiles show latest');

    const page = await fetchText(`${a.base}/_profiler/search?limit=50`);
    assert.match(
      page.body,
      /fff001.{0,600}dated 10 years ahead of this clock|dated 10 years ahead of this clock.{0,600}fff001/s,
      'the search page notes the row dated ahead',
    );
    assert.match(page.body, /dated 5 min ahead of this clock/);
    const listed = await runAppInProcess(['profiles', 'list', '--store', database.url], { env: { COLUMNS: '100' } });
    assert.match(listed.stdout, /ahead\s+fff002/, listed.stdout);
  } finally {
    clearTimeout(killer);
    tail.kill('SIGINT');
    live.body.destroy();
  }
});

test.run();
