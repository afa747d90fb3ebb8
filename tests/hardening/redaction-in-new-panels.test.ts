import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY, runCliInProcess, startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { startUpstream, type Upstream } from '../web-profiler/panels/panels-app.js';
import { leaks, profilerPages, storeContents, storedProfiles, uniqueSecret } from './secrets-harness.js';

/** label -> unique value; none may show in the store, a page, an output or the `app serve` terminal. */
const secrets: Record<string, string> = {};
const secret = (label: string) => (secrets[label] ??= uniqueSecret(label));

/** The app receives its secrets through the environment, and sends them out every way the new panels record. */
const APP = `import { get } from 'node:http';
import { createApp, dump, record } from ${JSON.stringify(PACKAGE_ENTRY)};
const s = JSON.parse(process.env.APPKERNEL_TEST_SECRETS);
const upstream = process.env.APPKERNEL_TEST_UPSTREAM;

export const app = createApp({ name: 'panel-secrets' })
  .panel('vault', { columns: ['Name', 'Password', 'Note'], row: (e) => [e.name, e.password, e.note] })
  .panel('cache', { columns: ['Key', 'Hit'], row: (e) => [e.key, e.hit] })
  .get('out', '/out', async function out({ stopwatch, log }) {
    log.warning('retry with passcode: ' + s.logPasscode + ', X-Api-Key: ' + s.logHeaderKey + ', OpenAI key sk-proj-' + s.openaiKey);
    record('cache', { key: 'item:1', hit: 'yes' });
    record('cache', { key: s.cacheKey, hit: 'no' });
    stopwatch.start('GET /api?access_token=' + s.spanToken);
    stopwatch.stop('GET /api?access_token=' + s.spanToken);
    await fetch(upstream + '/api?api_key=' + s.queryKey + '&page=1', {
      headers: { authorization: 'Bearer ' + s.bearer, 'x-api-key': s.headerKey, cookie: 'sid=' + s.cookie, 'x-note': 'token ghp_' + s.shaped },
    }).then((r) => r.text());
    await new Promise((done) => get(upstream + '/user', { auth: 'ann:' + s.userinfo }, (r) => { r.resume(); r.on('end', done); }).on('error', done));
    dump({ user: 'ann', password: s.dumpPassword, nested: { apiKey: s.dumpKey }, note: 'Authorization: Bearer ' + s.dumpBearer, map: new Map([['secret', s.dumpMapSecret]]) });
    record('vault', { name: 'db', password: s.panelPassword, note: 'Bearer ' + s.panelBearer });
    return { ok: true };
  });
`;

const ENV_SECRET_NAMES = ['APPKERNEL_TEST_API_TOKEN', 'APPKERNEL_TEST_DB_PASSWORD', 'APPKERNEL_TEST_CLIENT_SECRET'];

const test = suite(
  "redaction corpus over the new panels: outgoing calls, spans, dumps, the app's panels, the configuration, the dump echo",
);
let dir: string;
let store: string;
let serve: ServeProcess;
let upstream: Upstream;
let token: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-panel-redaction-'));
  store = join(dir, 'store');
  writeFileSync(join(dir, 'app.config.mjs'), APP);
  upstream = await startUpstream();
  const planted = Object.fromEntries(
    [
      'spanToken',
      'queryKey',
      'bearer',
      'headerKey',
      'cookie',
      'shaped',
      'userinfo',
      'dumpPassword',
      'dumpKey',
      'dumpBearer',
      'dumpMapSecret',
      'panelPassword',
      'panelBearer',
      'logPasscode',
      'logHeaderKey',
      'openaiKey',
      'cacheKey',
    ].map((name) => [name, secret(`app ${name}`)]),
  );
  const env: Record<string, string> = {
    APPKERNEL_TEST_SECRETS: JSON.stringify(planted),
    APPKERNEL_TEST_UPSTREAM: upstream.url,
  };
  for (const name of ENV_SECRET_NAMES) env[name] = secret(`env ${name}`);
  env.APPKERNEL_TEST_DATABASE_URL = `postgres://ann:${secret('env database url password')}@db.test/app`;
  serve = await startServe(['--store', store, '--no-watch'], { cwd: dir, env });
  const r = await fetchText(`${serve.base}/out`);
  assert.is(r.status, 200, r.body);
  token = r.headers['x-debug-token'];
  const profile = await fetchProfileJson(serve.base, token);
  assert.is(profile.collectors.http_client.calls.length, 2, 'both outgoing calls were recorded');
  assert.is(profile.collectors.dump.dumps.length, 1);
  assert.is(profile.collectors.custom.vault.rows.length, 1);
  assert.ok(profile.collectors.config.env.APPKERNEL_TEST_API_TOKEN, 'the configuration lists the environment');
});

test.after(async () => {
  await serve?.stop();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('when the new panels are stored, shown as pages, JSON and terminal text, and the dump is echoed, then no secret shows anywhere', async () => {
  await serve.stop();
  const pages = await (async () => {
    const again = await startServe(['--store', store, '--no-watch'], {
      cwd: dir,
      env: { APPKERNEL_TEST_SECRETS: '{}', APPKERNEL_TEST_UPSTREAM: upstream.url },
    });
    try {
      const list = await profilerPages(again.base, [token]);
      list.push({ name: 'vault panel', text: (await fetchText(`${again.base}/_profiler/${token}?panel=vault`)).body });
      list.push({ name: 'cache panel', text: (await fetchText(`${again.base}/_profiler/${token}?panel=cache`)).body });
      return list;
    } finally {
      await again.stop();
    }
  })();
  const outputs: { name: string; text: string }[] = [];
  for (const panel of ['http_client', 'dump', 'config', 'time', 'vault', 'cache', 'log']) {
    for (const extra of [[], ['--html']]) {
      const r = await runCliInProcess(['profiles', 'show', token, '--panel', panel, ...extra, '--store', store]);
      assert.is(r.code, 0, r.stderr);
      outputs.push({ name: `show --panel ${panel} ${extra.join(' ')}`, text: r.stdout + r.stderr });
    }
  }
  const json = await runCliInProcess(['profiles', 'show', token, '--json', '--store', store]);
  outputs.push({ name: 'show --json', text: json.stdout });
  const terminal = [{ name: 'app serve terminal', text: serve.output() }];
  assert.ok(
    serve.output().includes('dump ') && serve.output().includes('[REDACTED]'),
    'app serve echoed the dump, redacted',
  );
  const found = leaks(secrets, [
    ...storeContents(store),
    ...(await storedProfiles(store)),
    ...pages,
    ...outputs,
    ...terminal,
  ]);
  assert.equal(found, []);
  const shown = JSON.parse(json.stdout);
  assert.ok(shown.collectors.http_client.calls[0].url.includes('page=1'), 'what is not secret stays');
  assert.is(shown.collectors.custom.vault.rows[0][0], 'db');
  // app-defined data is judged by value: a cache panel's "Key" column keeps item:1, loses a credential-looking key
  assert.equal(shown.collectors.custom.cache.rows, [
    ['item:1', 'yes'],
    ['[REDACTED]', 'no'],
  ]);
});

test.run();
