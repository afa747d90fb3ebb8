import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from 'cheerio';
import { PACKAGE_ENTRY } from '../../helpers/cli.js';
import { fetchProfileJson, fetchText, serveAppSource, type TestServer } from '../../helpers/serve.js';

// The last rule guards every path, the profiler's included: the profiler must stay outside it.
const APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};
export const app = createApp()
  .get('admin', '/admin', () => '<html><body>admin</body></html>')
  .get('staff', '/staff', () => '<html><body>staff</body></html>')
  .get('open', '/open', () => '<html><body>open</body></html>')
  .guard({ name: 'admin', path: '^/admin', check: (req) => req.header('authorization') === 'Bearer dev' ? true : { status: 401, message: 'Sign in to see the admin pages.' } })
  .guard({ name: 'staff', path: /^\\/staff/, check: () => ({ status: 403, message: 'Staff only.' }) })
  .guard({ name: 'everything', path: '^/(?!open)', check: () => ({ status: 403, message: 'Closed.' }) });
`;

const test = suite('the security firewall (app file with rules)');
let t: TestServer;

test.before(async () => {
  t = await serveAppSource('app.config.ts', APP);
});
test.after(async () => {
  await t.stop();
});

test('when a rule answers 401, then 401 with its message and WWW-Authenticate; the security channel logs the check and the denial', async () => {
  const r = await fetchText(`${t.base}/admin`);
  assert.is(r.status, 401);
  assert.ok(r.headers['www-authenticate']);
  const $ = load(r.body);
  assert.is($('title').text(), 'Sign in to see the admin pages. (401 Unauthorized)');
  assert.ok($('h1').text().includes('Error 401 Unauthorized'));
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  const security = profile.collectors.log.records.filter((rec: { channel: string }) => rec.channel === 'security');
  assert.ok(
    security.some((rec: { message: string }) => rec.message === 'Checking firewall rule "admin" for "/admin".'),
    JSON.stringify(security),
  );
  assert.ok(
    security.some((rec: { message: string }) =>
      rec.message.startsWith('Firewall rule "admin" denied access: Sign in to see the admin pages.'),
    ),
  );
  assert.equal(profile.collectors.security, {
    decision: 'denied',
    rule: 'admin',
    message: 'Sign in to see the admin pages.',
  });
});

test('when the rule grants access, then the controller answers and the grant is logged on channel security', async () => {
  const r = await fetchText(`${t.base}/admin`, { headers: { authorization: 'Bearer dev' } });
  assert.is(r.status, 200);
  const profile = await fetchProfileJson(t.base, r.headers['x-debug-token']);
  assert.ok(
    profile.collectors.log.records.some(
      (rec: { channel: string; message: string }) =>
        rec.channel === 'security' && rec.message === 'Firewall rule "admin" granted access.',
    ),
  );
  assert.is(profile.collectors.security.decision, 'allowed');
});

test('when a rule answers 403, then 403 with its message, in the page and in a JSON problem', async () => {
  const page = await fetchText(`${t.base}/staff`);
  assert.is(page.status, 403);
  assert.ok(load(page.body).root().text().includes('Staff only.'));
  const problem = await fetchText(`${t.base}/staff`, { headers: { accept: 'application/json' } });
  assert.is(problem.status, 403);
  assert.is(JSON.parse(problem.body).detail, 'Staff only.');
});

test('when the firewall runs, then it runs after the router: the route is matched first, and a 404 is never turned into a 403', async () => {
  const denied = await fetchProfileJson(t.base, (await fetchText(`${t.base}/staff`)).headers['x-debug-token']);
  const messages: string[] = denied.collectors.log.records.map((rec: { message: string }) => rec.message);
  assert.ok(
    messages.indexOf('Matched route "staff".') <
      messages.findIndex((m) => m.startsWith('Checking firewall rule "staff"')),
  );
  assert.is((await fetchText(`${t.base}/nowhere`)).status, 404);
});

test("when a rule guards every path, then the profiler's pages stay outside it", async () => {
  assert.is((await fetchText(`${t.base}/open`)).status, 200);
  const token = (await fetchText(`${t.base}/staff`)).headers['x-debug-token'];
  await fetchProfileJson(t.base, token);
  const panel = await fetchText(`${t.base}/_profiler/${token}?panel=security`);
  assert.is(panel.status, 200);
  assert.ok(load(panel.body).root().text().includes('Staff only.'));
  assert.is((await fetchText(`${t.base}/_profiler`)).status, 301);
  const own = await fetchProfileJson(t.base, panel.headers['x-debug-token']);
  assert.is(own.collectors.security.decision, 'none');
});

test.run();
