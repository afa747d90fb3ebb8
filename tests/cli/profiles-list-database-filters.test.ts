import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { fetchText } from '../helpers/serve.js';
import { serveDatabaseApp, type DatabaseServer } from '../core/debug/database-app.js';

for (const store of ['folder', 'postgres'] as const) {
  const test = suite(`profiles list --min-queries and --repeated-queries on a ${store} store`);
  let t: DatabaseServer;
  const tokens: Record<string, string> = {};

  test.before(async () => {
    t = await serveDatabaseApp({ store });
    for (const path of ['/n-plus-one', '/pg/pool', '/page/3', '/maria'])
      tokens[path] = (await fetchText(`${t.base}${path}`)).headers['x-debug-token'];
    await t.server.storage?.flush();
  });
  test.after(async () => {
    await t.remove();
  });

  async function listed(...args: string[]): Promise<string[]> {
    const r = await runAppInProcess(['profiles', 'list', '--json', '--store', t.storeDir, ...args]);
    assert.is(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { token: string }[]).map((row) => row.token);
  }

  test('when --min-queries is given, then only profiles with at least that many queries are listed, newest first', async () => {
    assert.equal(await listed('--min-queries', '3'), [tokens['/page/3'], tokens['/n-plus-one']]);
    assert.equal(await listed('--min-queries', '2'), [tokens['/maria'], tokens['/page/3'], tokens['/n-plus-one']]);
    assert.equal(await listed('--min-queries', '2', '--limit', '1'), [tokens['/maria']]);
  });

  test('when --repeated-queries is given, then only profiles with a repeated-query warning are listed', async () => {
    assert.equal(await listed('--repeated-queries'), [tokens['/n-plus-one']]);
    assert.equal(await listed('--repeated-queries', '--url', '/pg/'), []);
  });

  test('when --min-queries is not a count, then the CLI says so and exits 2', async () => {
    const r = await runApp(['profiles', 'list', '--min-queries', 'many', '--store', t.storeDir]);
    assert.is(r.code, 2);
    assert.match(r.stderr, /Invalid min-queries "many": expected an integer/);
  });

  test.run();
}
