import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';
import { fetchRawPath, serveAppSource, type TestServer } from '../../helpers/serve.js';

// The router matches the decoded path: a rule must guard every spelling the router accepts.
const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('admin', '/admin/{page}', ({ params }) => '<html><body>admin ' + params.page + '</body></html>')
  .get('own_profiler_like', '/_profiler/{x}/own', () => '<html><body>not the profiler</body></html>')
  .guard({ name: 'admin', path: '^/admin', check: () => ({ status: 403, message: 'Admins only.' }) })
  .guard({ name: 'everything', path: '^/_profiler/[^/]+/own', check: () => ({ status: 403, message: 'Closed.' }) });
`;

for (const debug of [true, false]) {
  const test = suite(
    `the firewall guards what the router matches, however the path is spelled (${debug ? 'debug' : 'no debug'})`,
  );
  let t: TestServer;

  test.before(async () => {
    t = await serveAppSource('app.config.ts', APP, { debug });
  });
  test.after(async () => {
    await t.stop();
  });

  test('when the guarded path is asked as written, then 403', async () => {
    assert.is((await fetchRawPath(t.base, '/admin/users')).status, 403);
  });

  for (const spelling of ['/%61dmin/users', '/%61%64%6D%69%6E/users', '/adm%69n/users']) {
    test(`when the guarded path is percent-encoded as ${spelling}, then the route it matches is still guarded: 403, never the page`, async () => {
      const r = await fetchRawPath(t.base, spelling);
      assert.not.ok(r.body.includes('admin users'), `${spelling} reached the controller`);
      assert.is(r.status, 403, spelling);
    });
  }

  if (!debug) {
    test('when the profiler is off, then an app route under /_profiler/ is not exempt from the firewall', async () => {
      const r = await fetchRawPath(t.base, '/_profiler/x/own');
      assert.not.ok(r.body.includes('not the profiler'), "the app's own route skipped its firewall rule");
      assert.is(r.status, 403);
    });
  }

  test.run();
}
