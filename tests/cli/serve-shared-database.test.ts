import { hostname } from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, type ServeProcess, runAppInProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { startServesOnPostgres, STORE_OPTION, type ServesOnPostgres } from '../helpers/serves-on-postgres.js';
import type { TempPostgres } from '../helpers/temp-postgres.js';

const test = suite('two app serve instances share one PostgreSQL profile store (real bin, real server)');
let shared: ServesOnPostgres;
let database: TempPostgres;
let dir: string;
let a: ServeProcess;
let b: ServeProcess;

test.before(async () => {
  // A by --store, B by the environment
  shared = await startServesOnPostgres('appkernel-shared-', [
    STORE_OPTION,
    (url) => ({ args: ['--no-watch'], env: { APPKERNEL_PROFILER_STORE: url } }),
  ]);
  ({
    database,
    dir,
    serves: [a, b],
  } = shared);
});

test.after(async () => {
  await shared?.close();
});

const tokenOf = async (url: string) => (await fetchText(url)).headers['x-debug-token'];
const listed = async (): Promise<{ token: string }[]> => {
  const r = await runAppInProcess(['profiles', 'list', '--json', '--limit', '1000', '--store', database.url]);
  assert.is(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
};

test("when both serve requests, then one profiles list holds both, each /_profiler shows the other's, and each profile says which instance served it", async () => {
  const fromA = await tokenOf(`${a.base}/hello/world`);
  const fromB = await tokenOf(`${b.base}/robots.txt`);
  await fetchProfileJson(a.base, fromA);
  await fetchProfileJson(b.base, fromB);
  const tokens = (await listed()).map((row) => row.token);
  assert.ok(tokens.includes(fromA) && tokens.includes(fromB), tokens.join(' '));
  assert.ok(
    await waitFor(async () => (await fetchText(`${a.base}/_profiler/search?limit=50`)).body.includes(fromB), 10_000),
    "A's search page lists B's profile",
  );
  assert.ok(
    await waitFor(async () => (await fetchText(`${b.base}/_profiler/search?limit=50`)).body.includes(fromA), 10_000),
    "B's search page lists A's profile",
  );
  const profileOfB = await fetchProfileJson(a.base, fromB);
  assert.is(profileOfB.url, `${b.base}/robots.txt`);
  assert.is(profileOfB.instance, `${hostname()}:${new URL(b.base).port}`);
  const page = await fetchText(`${b.base}/_profiler/${fromA}?panel=request`);
  assert.is(page.status, 200);
  assert.ok(
    page.body.includes(`${hostname()}:${new URL(a.base).port}`),
    'the Request panel names the server that served it',
  );
  const table = await runApp(['profiles', 'list', '--limit', '1000', '--store', database.url]);
  assert.match(table.stdout, /Token\s+Instance/);
  for (const server of [a, b])
    assert.ok(table.stdout.includes(`${hostname()}:${new URL(server.base).port}`), table.stdout);
});

test('when a profile recorded by one instance is replayed, then the request is sent again and its new profile is stored', async () => {
  const fromB = await tokenOf(`${b.base}/hello/world`);
  await fetchProfileJson(b.base, fromB);
  for (const target of [[], ['--target', a.base]]) {
    const r = await runAppInProcess(['replay', fromB, '--json', ...target, '--store', database.url]);
    assert.is(r.code, 0, r.stderr);
    const replayed = JSON.parse(r.stdout) as { token: string; status: number };
    assert.is(replayed.status, 200);
    assert.ok(
      await waitFor(async () => (await listed()).some((row) => row.token === replayed.token), 10_000),
      `replayed profile ${replayed.token} is listed`,
    );
  }
});

test('when the database stops mid-load, then every request is answered, and once it is back every profile is stored', async () => {
  const tokens: string[] = [];
  const failures: string[] = [];
  let stop = false;
  const load = async (base: string) => {
    for (let i = 0; !stop || i < 20; i++) {
      const r = await fetchText(`${base}/hello/world?n=${i}`).catch((error: Error) => ({
        status: 0,
        body: error.message,
        headers: {} as Record<string, string>,
      }));
      if (r.status !== 200) failures.push(`${r.status} ${r.body.slice(0, 200)}`);
      else tokens.push(r.headers['x-debug-token']);
    }
  };
  const running = Promise.all([load(a.base), load(b.base), load(a.base), load(b.base)]);
  await waitFor(() => tokens.length >= 40, 20_000);
  database.stopServer();
  const whileDown = tokens.length;
  await waitFor(() => tokens.length >= whileDown + 100, 20_000);
  database.startServer();
  stop = true;
  await running;
  assert.equal(failures, []);
  assert.ok(
    tokens.length >= whileDown + 100,
    `${tokens.length - whileDown} requests answered while the database was down`,
  );
  const all = new Set(tokens);
  assert.ok(
    await waitFor(async () => (await listed()).filter((row) => all.has(row.token)).length === all.size, 30_000),
    'every profile of the load is listed once the database is back',
  );
  assert.match(a.output() + b.output(), /The profile database went away/);
  // Told once the warning interval of `app serve` ends.
  assert.ok(
    await waitFor(() => /The profile database is back/.test(a.output() + b.output()), 15_000),
    a.output() + b.output(),
  );
});

test('when the database cannot be reached at start, then app serve says so in one line and exits 2', async () => {
  const url = new URL(database.url);
  url.port = '1';
  const r = await runApp(['serve', '--port', '0', '--no-watch', '--store', url.toString()], { cwd: dir });
  assert.is(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /Cannot reach the profile database at 127\.0\.0\.1:1 \(ECONNREFUSED\): is PostgreSQL running there\?/,
  );
  assert.not.match(r.stderr, /appkernel-test/);
});

test('when the password is wrong or the database is missing, then profiles list says so in one line and exits 2', async () => {
  const wrong = new URL(database.url);
  wrong.password = 'not-the-password';
  const missing = new URL(database.url);
  missing.pathname = '/missing_db';
  for (const [url, message] of [
    [wrong, /refused user "postgres": wrong user or password/],
    [missing, /The profile database "missing_db" does not exist/],
  ] as const) {
    const r = await runApp(['profiles', 'list', '--store', url.toString()], { cwd: dir });
    assert.is(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.not.match(r.stderr, /not-the-password/);
  }
});

test.run();
