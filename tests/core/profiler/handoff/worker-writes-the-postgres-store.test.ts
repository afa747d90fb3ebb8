import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApp } from '../../../../core/app/app.js';
import { Request } from '../../../../core/http/request.js';
import { combinedRoutes } from '../../../../core/kernel/build-kernel.js';
import { ProfileHandoff } from '../../../../core/profiler/handoff/profile-handoff.js';
import { openPostgresStorage, type PostgresStorage } from '../../../../core/profiler/storage/postgres-storage.js';
import { ProfileIntake } from '../../../../core/profiler/handoff/profile-intake.js';
import { ServerName } from '../../../../core/profiler/server-name.js';
import { WRITER_APPLICATION_NAME } from '../../../../core/profiler/storage/postgres-thread-writer.js';
import { createAppKernel } from '../../../../server/kernel-factory.js';
import { profilerRoutes, WebProfiler } from '../../../../web-profiler/web-profiler.js';
import { waitFor } from '../../../helpers/poll.js';
import { sql, startTempPostgres } from '../../../helpers/temp-postgres.js';
import { profile200 } from '../fixtures.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';

// The profiler worker writes the PostgreSQL store itself, over a connection of its own: the main
// thread announces each profile, settles it when the worker reports it inserted, and reads it back.

const test = suite('the profiler worker writes the profiles it builds into the PostgreSQL store');

const server = await startTempPostgres();
const app = createApp({ name: 'writer' }).get('hello', '/hello/{name}', ({ params }) => `Hello ${params.name}`);
const routes = combinedRoutes(app, [{ routes: profilerRoutes() }]);

/** the store as the server has it: behind its intake */
let storage: ProfileIntake | null = null;
/** the server's name, as `app serve` gives it to the store and sets it once it listens */
let serverName = new ServerName();
let handoff: ProfileHandoff | null = null;
test.after.each(async () => {
  await handoff?.close();
  await storage?.close();
  handoff = null;
  storage = null;
});

async function serving(url: string, prepare = (_storage: PostgresStorage) => {}) {
  const warnings: string[] = [];
  serverName = new ServerName();
  const opened = await openPostgresStorage({ url, serverName, onWarning: (message) => warnings.push(message) });
  prepare(opened);
  storage = new ProfileIntake({ store: opened, serving: opened }, { warn: (message) => warnings.push(message) });
  const kernel = createAppKernel(app, {
    debug: true,
    root: process.cwd(),
    profiler: new WebProfiler(storage, (message) => warnings.push(message)),
  });
  handoff = new ProfileHandoff(storage, (message) => warnings.push(message));
  const table = handoff.addRoutes(routes);
  return {
    warnings,
    async serve(name: string): Promise<string> {
      const request = new Request({
        method: 'GET',
        target: `/hello/${name}`,
        headers: { host: '127.0.0.1' },
        body: Buffer.alloc(0),
        clientIp: '127.0.0.1',
      });
      const response = await kernel.handle(request);
      const trace = kernel.traceOf(request);
      handoff!.submit(request, trace, response, table);
      return trace.token!;
    },
  };
}

const writerConnections = async (url: string): Promise<number> =>
  (
    await sql(
      url,
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [WRITER_APPLICATION_NAME],
    )
  ).rows[0].n;

test('when responses are handed over, then the worker inserts them, the main queue stays empty, and each is readable right after', async () => {
  const url = await server.createDatabase();
  const { serve, warnings } = await serving(url);
  serverName.set('test-host:4242');
  // The worker's start (its modules, its connection) can take more than the second a read waits on a
  // loaded machine: one profile first, flushed, so that the rounds below read from a running worker.
  await serve('warm-up');
  await storage!.flush();
  let queuedHere = 0;
  for (let round = 0; round < 3; round++) {
    const tokens = await Promise.all(Array.from({ length: 30 }, (_, i) => serve(`r${round}n${i}`)));
    for (const token of tokens) assert.ok(storage!.has(token), `has(${token})`);
    queuedHere = Math.max(queuedHere, storage!.stats().queued);
    for (const [i, token] of tokens.entries()) {
      const read = await storage!.read(token);
      assert.is(read?.url, `http://127.0.0.1/hello/r${round}n${i}`, token);
      assert.is(read?.instance, 'test-host:4242', 'the name set after the worker opened the writer');
      queuedHere = Math.max(queuedHere, storage!.stats().queued);
    }
  }
  assert.is(queuedHere, 0, "no profile went through the main thread's write queue");
  assert.ok(await waitFor(async () => (await writerConnections(url)) === 1, 5_000), "the worker's connection is open");
  assert.is(await storage!.count({ limit: 1 }), 91);
  await storage!.flush();
  assert.is(storage!.stats().profiles, 91);
  assert.is(storage!.stats().dropped, 0);
  assert.equal(warnings, []);
});

test('when another instance already stored a token, then the worker drops its profile and the main store counts and tells it', async () => {
  const url = await server.createDatabase();
  // Every draw gives a token already in the table, as if another instance had taken it.
  const { serve, warnings } = await serving(url, (opened) => {
    opened.writeBatch([storedEntry(profile200({ token: 'abc123', time: Date.now() - 1_000 }))]);
    opened.nextToken = () => 'abc123';
    opened.has = () => false;
  });
  await storage!.flush();
  await serve('b');
  await storage!.flush();
  assert.is(storage!.stats().dropped, 1);
  assert.ok(
    warnings.some((w) => /already taken by another instance/.test(w)),
    warnings.join('\n'),
  );
});

test.run();
