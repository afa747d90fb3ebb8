import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ServeProcess } from '../helpers/cli.js';
import { waitFor } from '../helpers/poll.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { startServesOnPostgres, type ServesOnPostgres } from '../helpers/serves-on-postgres.js';
import type { TempPostgres } from '../helpers/temp-postgres.js';

const test = suite(
  'app serve on a PostgreSQL store: while the database is away, the profiler pages answer 503, then serve again',
);
let served: ServesOnPostgres;
let database: TempPostgres;
let server: ServeProcess;

test.before(async () => {
  served = await startServesOnPostgres('appkernel-pages-away-');
  ({
    database,
    serves: [server],
  } = served);
});

test.after(async () => {
  await served?.close();
});

test('when the database stops, then each page that reads the store is a 503 with Retry-After naming the database; when it is back, they are 200 again', async () => {
  const token = (await fetchText(`${server.base}/hello/world`)).headers['x-debug-token'];
  await fetchProfileJson(server.base, token);
  database.stopServer();
  const pages = [`/_profiler/search?limit=10`, `/_profiler/latest`, `/_profiler/${token}`, `/_profiler/${token}.json`];
  for (const page of pages) {
    const answer = await fetchText(server.base + page, { headers: { Accept: 'text/html' } });
    assert.is(answer.status, 503, `${page}: ${answer.body.slice(0, 300)}`);
    assert.is(answer.headers['retry-after'], '5', page);
    assert.match(answer.body, /profile database cannot be reached/, page);
  }
  const json = await fetchText(`${server.base}/_profiler/${token}`, { headers: { Accept: 'application/json' } });
  assert.is(json.status, 503);
  assert.match(json.body, /The profile \\"[0-9a-f]{6}\\" cannot be read: The profile database cannot be reached/);
  database.startServer();
  for (const page of pages) {
    assert.ok(
      await waitFor(async () => (await fetchText(server.base + page)).status === 200, 15_000),
      `${page} is 200 again`,
    );
  }
});

test.run();
