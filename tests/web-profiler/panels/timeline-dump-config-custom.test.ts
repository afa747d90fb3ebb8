import { load } from 'cheerio';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../../core/profiler/profile.js';
import { renderProfileText } from '../../../panels/profile-text.js';
import { renderProfilePage } from '../../../web-profiler/views/profile-page.js';
import { runAppInProcess } from '../../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../../helpers/serve.js';
import { servePanelsApp, type PanelsServer } from './panels-app.js';

const test = suite('the timeline, dump, configuration and app-defined panels, from the stored profile');
let t: PanelsServer;

test.before(async () => {
  process.env.APPKERNEL_TEST_DB_PASSWORD = 'db-password-value-42';
  process.env.APPKERNEL_TEST_VISIBLE = 'plain-visible-value';
  t = await servePanelsApp();
});
test.after(async () => {
  await t.remove();
  delete process.env.APPKERNEL_TEST_DB_PASSWORD;
  delete process.env.APPKERNEL_TEST_VISIBLE;
});

async function profiled(path: string): Promise<Profile> {
  const r = await fetchText(`${t.base}${path}`);
  return fetchProfileJson(t.base, r.headers['x-debug-token']);
}

async function page(profile: Profile, panel: string): Promise<ReturnType<typeof load>> {
  const r = await fetchText(`${t.base}/_profiler/${profile.token}?panel=${panel}`);
  assert.is(r.status, 200, `panel ${panel}`);
  return load(r.body);
}

test('when a controller times spans, then the performance panel shows them with the phases, listener calls and the fetch on one axis, and the memory', async () => {
  const profile = await profiled('/timeline');
  const { spans, memory } = profile.collectors.time;
  assert.equal(
    spans!.map((span) => span.name),
    ['load', 'render', 'left-running'],
  );
  assert.ok(spans![1].duration! >= 4, 'measure() timed the 5 ms wait');
  assert.is(spans![2].duration, null, 'a span left running is unfinished');
  const call = profile.collectors.http_client!.calls[0];
  assert.ok(
    call.start >= spans![0].start && call.start + call.duration! <= spans![0].start + spans![0].duration!,
    'the fetch lies inside the span around it',
  );
  assert.ok(memory && memory.heapUsed > 0 && memory.rss > 0);
  const $ = await page(profile, 'time');
  const kinds = $('main tbody tr')
    .map((_, row) => $(row).attr('class'))
    .get();
  for (const kind of ['tl-phase', 'tl-listener', 'tl-span', 'tl-http'])
    assert.ok(kinds.includes(kind), `a ${kind} row`);
  assert.ok($('main').text().includes('Memory at the end'));
  const text = renderProfileText(profile, 'time', { color: false });
  assert.match(text, /span +render/);
  assert.match(text, /http +GET http:\/\/127\.0\.0\.1:\d+\/echo\/timeline/);
  assert.match(text, /listener +kernel\.request · RouterListener::onKernelRequest/);
  assert.match(text, /left-running +[\d.]+ ms +unfinished/);
});

test('when a controller dumps values, then the dump panel shows each with its place, class names, cycles and secrets redacted', async () => {
  const profile = await profiled('/dumps');
  const dumps = profile.collectors.dump!.dumps;
  assert.is(dumps.length, 2);
  assert.ok(
    dumps[0].file!.endsWith('app.config.mjs') && dumps[1].file!.endsWith('app.config.mjs'),
    `the call sites are in the app file: ${dumps.map((d) => d.file)}`,
  );
  assert.ok(dumps[1].line! === dumps[0].line! + 1);
  const text = renderProfileText(profile, 'dump', { color: false });
  assert.match(text, /User \{\n {2}name: "ann",\n {2}password: "\[REDACTED\]",\n {2}self: \[circular User\]\n\}/);
  assert.match(text, /Map\(1\) \{\n {2}"k" => Array\(3\) \[/);
  assert.not.ok(JSON.stringify(profile).includes('pw-ann-secret'));
  const $ = await page(profile, 'dump');
  assert.ok($('main pre').first().text().includes('[circular User]'));
  assert.ok($('main code').first().text().includes(`app.config.mjs:${dumps[0].line}`));
  assert.is($('main a.editor').length, 0, 'no editor configured, no link');
  // with `app serve --editor vscode`, each dump's place opens in the editor, as a query's does
  const withEditor = load(
    renderProfilePage(profile, { panel: 'dump', editor: { template: 'vscode://file/%f:%l', root: '/srv/app' } }),
  );
  assert.equal(
    withEditor('main a.editor')
      .map((_, a) => withEditor(a).attr('href'))
      .get(),
    dumps.map((d) => `vscode://file${d.file}:${d.line}`),
  );
});

test('when the configuration panel is opened, then it shows versions, app file, options, store and the environment with secrets redacted', async () => {
  const profile = await profiled('/cache');
  const config = profile.collectors.config!;
  assert.is(config.node, process.version);
  assert.match(config.appkernel, /^\d+\.\d+\.\d+/);
  assert.ok(config.appFile!.endsWith('app.config.mjs'));
  assert.is(config.store, t.storeDir);
  assert.is(config.options.host, '127.0.0.1');
  assert.is(config.env.APPKERNEL_TEST_DB_PASSWORD, '[REDACTED]');
  assert.is(config.env.APPKERNEL_TEST_VISIBLE, 'plain-visible-value');
  assert.ok(config.redacted.includes('env APPKERNEL_TEST_DB_PASSWORD'));
  const $ = await page(profile, 'config');
  assert.ok($('main').text().includes('plain-visible-value'));
  assert.not.ok($('main').text().includes('db-password-value-42'));
  assert.match(renderProfileText(profile, 'config', { color: false }), /APPKERNEL_TEST_DB_PASSWORD +\[REDACTED\]/);
});

test("when the configuration panel is opened, then it shows the values in effect, defaults marked, and the app's variables, not the host's", async () => {
  const profile = await profiled('/cache');
  const { options, env } = profile.collectors.config!;
  assert.ok(process.env.PATH && process.env.HOME, 'the host has PATH and HOME');
  for (const host of ['PATH', 'HOME']) assert.not.ok(host in env, `${host} is the host's, not the app's`);
  assert.is(env.APPKERNEL_TEST_VISIBLE, 'plain-visible-value');
  assert.is(options['retention.maxProfiles'], '10000 (default)');
  assert.is(options['retention.maxBytes'], '200 MB (default)');
  assert.is(options['retention.maxAge'], '7 days (default)');
  assert.is(options.allowedHosts, 'localhost, 127.0.0.1, [::1] (default)');
  assert.is(options.bodyLimit, '1 MB (default)');
  assert.is(options['timeouts.headersTimeout'], '10 s (default)');
  assert.is(options.watch, 'false');
  assert.not.ok(
    Object.values(options).some((value) => value === '{}' || value === '[]'),
    JSON.stringify(options),
  );
  const $ = await page(profile, 'config');
  assert.ok($('main').text().includes('10000 (default)'));
  assert.not.ok($('main').text().includes('PATH'));
  const text = renderProfileText(profile, 'config', { color: false });
  assert.match(text, /retention\.maxProfiles +10000 \(default\)/);
  assert.not.match(text, /^\s*HOME /m);
});

test('when the app defines a panel and records entries, then it appears in the menu, the page, `app profiles show --panel` and the JSON', async () => {
  const profile = await profiled('/cache');
  assert.equal(profile.collectors.custom!.cache, {
    title: 'Cache',
    columns: ['Entry', 'Result'],
    rows: [
      ['user:1', 'hit'],
      ['user:2', 'miss'],
    ],
  });
  const $ = await page(profile, 'cache');
  assert.is($('main h2').text(), 'Cache');
  assert.equal(
    $('main tbody tr')
      .map((_, row) => $(row).text())
      .get(),
    ['user:1hit', 'user:2miss'],
  );
  assert.ok($('nav a.on').text().startsWith('Cache'), 'the menu lists the panel, current');
  await t.server.storage!.flush();
  const shown = await runAppInProcess(['profiles', 'show', profile.token, '--panel', 'cache', '--store', t.storeDir]);
  assert.is(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /Cache\n-----\nEntry +Result\n-+ +-+\nuser:1 +hit\nuser:2 +miss\n/);
  const json = await runAppInProcess(['profiles', 'show', profile.token, '--json', '--store', t.storeDir]);
  assert.equal(JSON.parse(json.stdout).collectors.custom.cache.rows, [
    ['user:1', 'hit'],
    ['user:2', 'miss'],
  ]);
  const other = await profiled('/dumps');
  assert.equal(other.collectors.custom!.cache.rows, [], 'a request that records nothing has the panel, empty');
  const unknown = await runAppInProcess(['profiles', 'show', profile.token, '--panel', 'nope', '--store', t.storeDir]);
  assert.is(unknown.code, 2);
  assert.match(unknown.stderr, /Allowed choices are .*config \(Configuration\), cache \(Cache\)\./);
});

test('when a profile stored before these panels is shown, then every new panel renders as HTML and text, saying it holds nothing', async () => {
  const profile = await profiled('/cache');
  const old = structuredClone(profile) as Profile;
  delete old.collectors.http_client;
  delete old.collectors.dump;
  delete old.collectors.config;
  delete old.collectors.custom;
  delete old.collectors.time.spans;
  delete old.collectors.time.memory;
  const { renderProfilePage } = await import('../../../web-profiler/views/profile-page.js');
  for (const panel of ['http_client', 'dump', 'config', 'time'] as const) {
    const html = renderProfilePage(old, { panel });
    assert.ok(load(html)('main').text().length > 0, `${panel} page`);
    assert.ok(renderProfileText(old, panel, { color: false }).length > 0, `${panel} text`);
  }
  assert.ok(
    load(renderProfilePage(old, { panel: 'http_client' }))('main')
      .text()
      .includes('recorded before'),
  );
});

test.run();
