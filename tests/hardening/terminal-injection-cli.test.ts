import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Profile } from '../../core/profiler/profile.js';
import { terminalSafe, terminalSafeBlock } from '../../render/text/terminal-safe.js';
import { BIN, type CliResult, runApp, runAppInProcess, runCliInProcess } from '../helpers/cli.js';
import { fetchProfileJson, serveForTest, type TestServer } from '../helpers/serve.js';
import { sampleProfile } from '../render/text/sample-profile.js';
import { assertNoRawControls, headerBytes, hostileAppDir, sendHostile, TERMINAL_PAYLOADS } from './terminal-harness.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';

const test = suite(
  'every app profiles and app replay output is terminal-safe, whatever the profile holds (real bin, hostile app)',
);
let app: ReturnType<typeof hostileAppDir>;
let t: TestServer;
/** per payload, the token of a POST /fail recorded over HTTP with it in query, Referer, a header, the body, a log and an exception */
const recorded = new Map<string, string>();
/** a profile with every payload in the fields HTTP cannot carry raw (URL, method, IP), written to the same store */
const WRITTEN = 'fe0c1a';
const ALL = TERMINAL_PAYLOADS.map((p) => p.payload).join(' ');

function writtenProfile(): Profile {
  const base = sampleProfile();
  const url = `http://127.0.0.1:8000/${ALL}`;
  return {
    ...base,
    token: WRITTEN,
    method: `GET${ALL}`,
    ip: `127.0.0.1${ALL}`,
    url,
    status: 500,
    time: Date.now(),
    collectors: {
      ...base.collectors,
      request: {
        ...base.collectors.request,
        url,
        method: `GET${ALL}`,
        path: `/${ALL}`,
        routeParams: { name: ALL },
        headers: { 'x-evil': ALL },
        body: { size: ALL.length, contentType: 'text/plain', text: ALL, truncated: false },
      },
      exception: {
        chain: [
          {
            class: `Error${ALL}`,
            message: ALL,
            status: 500,
            headers: {},
            frames: [{ function: ALL, file: ALL, line: 1, column: 1, kind: 'app' }],
          },
        ],
      },
      log: {
        records: [{ time: Date.now(), level: 'ERROR', channel: ALL, message: ALL, context: { [ALL]: ALL } }],
        errors: 1,
        warnings: 0,
      },
    },
  };
}

test.before(async () => {
  app = hostileAppDir();
  t = await serveForTest({ appFile: app.appFile, root: app.dir });
  for (const { payload } of TERMINAL_PAYLOADS) {
    const answer = await sendHostile(
      t.base,
      'POST',
      `/fail?q=${encodeURIComponent(payload)}`,
      { referer: headerBytes(payload), 'x-evil': headerBytes(payload), 'content-type': 'text/plain' },
      payload,
    );
    assert.is(answer.status, 500);
    recorded.set(payload, answer.headers['x-debug-token']);
    await fetchProfileJson(t.base, answer.headers['x-debug-token']);
  }
  t.server.storage!.writeBatch([storedEntry(writtenProfile())]);
  await fetchProfileJson(t.base, WRITTEN);
});
test.after(async () => {
  await t.stop();
  app.remove();
});

/** Runs a command (in this process, or the real bin) and checks both its outputs. */
async function output(
  args: string[],
  where: string,
  run: (args: string[]) => Promise<CliResult> = runAppInProcess,
): Promise<string> {
  const r = await run([...args, '--store', t.storeDir]);
  assert.ok(r.code === 0 || r.code === 1, `${where}: exit ${r.code}: ${r.stderr}`);
  assertNoRawControls(r.stdout, `${where} (stdout)`);
  assertNoRawControls(r.stderr, `${where} (stderr)`);
  return r.stdout;
}

test('when listed as text or JSON, then URL, method and IP show every payload escaped; the JSON parses back to them', async () => {
  const text = await output(['profiles', 'list', '--limit', '50'], 'list', runApp);
  assert.ok(text.includes(terminalSafe(`GET${ALL}`)), text);
  const json = await output(['profiles', 'list', '--limit', '50', '--json'], 'list --json');
  const row = (JSON.parse(json) as { token: string; url: string; ip: string }[]).find((r) => r.token === WRITTEN)!;
  assert.is(row.url, `http://127.0.0.1:8000/${ALL}`);
  assert.is(row.ip, `127.0.0.1${ALL}`);
  assert.ok(
    json.includes('\\u009b') && json.includes('\\u202e') && json.includes('\\u2028'),
    'C1, bidi and separators as \\u escapes',
  );
});

test('when the written profile is shown, diffed and exported, then every output is terminal-safe and JSON keeps the values', async () => {
  for (const panel of ['request', 'exception', 'log', 'router'])
    await output(['profiles', 'show', WRITTEN, '--panel', panel], `show --panel ${panel}`);
  const shown = JSON.parse(await output(['profiles', 'show', WRITTEN, '--json'], 'show --json'));
  assert.equal(
    [shown.method, shown.collectors.request.body.text, shown.collectors.log.records[0].message],
    [`GET${ALL}`, ALL, ALL],
  );
  const diff = await output(
    ['profiles', 'diff', WRITTEN, recorded.get(TERMINAL_PAYLOADS[0].payload)!, '--wide'],
    'diff',
  );
  assert.ok(diff.includes(terminalSafe(ALL).slice(0, 30)), diff);
  await output(['profiles', 'diff', WRITTEN, recorded.get(TERMINAL_PAYLOADS[0].payload)!, '--json'], 'diff --json');
  const har = JSON.parse(
    await output(['profiles', 'export', WRITTEN, '--har', '--target', 'http://127.0.0.1:8000'], 'export --har'),
  );
  assert.is(har.log.entries[0].request.postData.text, ALL);
  await output(['profiles', 'show', WRITTEN, '--panel', 'exception', '--html'], 'show --html');
});

test('when --html is written to a terminal, then the page shows every payload as escapes too', async () => {
  const command = [
    process.execPath,
    BIN,
    'profiles',
    'show',
    WRITTEN,
    '--panel',
    'exception',
    '--html',
    '--store',
    t.storeDir,
  ]
    .map((a) => JSON.stringify(a))
    .join(' ');
  const tty = await new Promise<string>((resolve) => {
    // util-linux script gives the command a pseudo-terminal as stdout.
    const script = spawn('script', ['-qfec', `exec ${command}`, '/dev/null'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let text = '';
    script.stdout.on('data', (d) => (text += d));
    const timer = setTimeout(() => script.kill('SIGKILL'), 30_000);
    script.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
  // The terminal's own line discipline ends lines with CR LF.
  const page = tty.replace(/\r\n/g, '\n');
  assert.ok(page.includes('</html>'), page.slice(-300));
  assertNoRawControls(page, 'show --html to a terminal');
  assert.ok(page.includes(terminalSafe(TERMINAL_PAYLOADS[0].payload)), 'the OSC 52 payload as text');
});

for (const { name, payload } of TERMINAL_PAYLOADS) {
  test(`when the profile recorded with ${name} is shown as text, JSON and HTML, diffed and exported as HAR, then nothing is raw`, async () => {
    const token = recorded.get(payload)!;
    for (const panel of ['request', 'exception', 'log'])
      await output(['profiles', 'show', token, '--panel', panel], `show --panel ${panel}`, runCliInProcess);
    const profile = JSON.parse(await output(['profiles', 'show', token, '--json'], 'show --json', runCliInProcess));
    assert.is(profile.collectors.exception.chain[0].message, payload, 'the JSON parses back to the exception message');
    assert.is(profile.collectors.request.body.text, payload, 'and to the body');
    const html = await output(
      ['profiles', 'show', token, '--panel', 'exception', '--html'],
      'show --html (piped)',
      runCliInProcess,
    );
    assert.ok(html.includes(terminalSafeBlock(payload)), 'the page shows the escapes as text');
    await output(['profiles', 'diff', token, WRITTEN], 'diff', runCliInProcess);
    await output(['profiles', 'diff', token, WRITTEN, '--json'], 'diff --json', runCliInProcess);
    await output(['profiles', 'export', token, '--har'], 'export --har', runCliInProcess);
  });

  test(`when the profile recorded with ${name} is replayed with --json --diff, then the JSON (exception messages) is terminal-safe`, async () => {
    const token = recorded.get(payload)!;
    const json = await output(
      ['replay', token, '--target', t.base, '--json', '--diff'],
      'replay --json',
      runCliInProcess,
    );
    const result = JSON.parse(json);
    assert.is(result.status, 500);
    assert.is(result.diff.rows.find((r: { field: string }) => r.field === 'exception messages').a, payload);
  });
}

test('when a token or an option value given on the command line holds escape sequences, then the error quotes them escaped', async () => {
  for (const { name, payload } of TERMINAL_PAYLOADS) {
    const token = await runCliInProcess(['profiles', 'show', `ab${payload}`, '--store', t.storeDir]);
    assert.is(token.code, 1, name);
    assertNoRawControls(token.stderr, `unknown token: ${name}`);
    assert.ok(token.stderr.includes(`Token "ab${terminalSafe(payload)}" not found`), token.stderr);
    const choice = await runCliInProcess([
      'profiles',
      'show',
      'latest',
      '--panel',
      `x${payload}`,
      '--store',
      t.storeDir,
    ]);
    assert.is(choice.code, 2, name);
    assertNoRawControls(choice.stderr, `bad --panel: ${name}`);
    assert.ok(choice.stderr.includes(`argument 'x${terminalSafe(payload)}' is invalid`), choice.stderr);
    const limit = await runCliInProcess(['profiles', 'list', '--limit', payload, '--store', t.storeDir]);
    assert.is(limit.code, 2, name);
    assertNoRawControls(limit.stderr, `bad --limit: ${name}`);
    for (const stderr of [token.stderr, choice.stderr, limit.stderr])
      assert.not.match(stderr, /^12:00:00 CRITICAL/m, 'no forged line');
  }
});

test.run();
