import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

const test = suite('redacted values are never sent as placeholders: replay and export');
let dir: string;
let store: string;
let serve: TestServer;
let token: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-replay-redacted-'));
  store = join(dir, 'store');
  serve = await serveForTest({ store: store, root: dir });
  const r = await fetchText(`${serve.base}/hello/ann?password=hunter2&page=2`, {
    headers: { authorization: 'Bearer s3cret', cookie: 'sid=c00kie' },
  });
  token = r.headers['x-debug-token'];
  await fetchProfileJson(serve.base, token);
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('when a request with secrets is replayed, then the redacted header, cookie and query pair are left out, and the user is told', async () => {
  const r = await runApp(['replay', token, '--json', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.is(result.url, `${serve.base}/hello/ann?page=2`);
  assert.equal([...result.omitted].sort(), ['authorization', 'cookie', 'query password']);
  assert.match(r.stderr, /Left out \(redacted when recorded\): .*authorization/);
  const replayed = await fetchProfileJson(serve.base, result.token);
  assert.is(replayed.collectors.request.headers.authorization, undefined);
  assert.is(replayed.collectors.request.headers.cookie, undefined);
  assert.equal(replayed.collectors.request.query, { page: '2' });
  const sent = JSON.stringify([replayed.url, replayed.collectors.request.headers, replayed.collectors.request.query]);
  assert.not.ok(sent.includes('REDACTED'), `no placeholder reached the server: ${sent}`);
  assert.equal(replayed.collectors.request.redacted, [], 'nothing secret was sent');
});

test('when --header supplies the redacted header, then it is sent and no longer reported as left out', async () => {
  const r = await runAppInProcess([
    'replay',
    token,
    '--json',
    '--header',
    'Authorization: Bearer again',
    '--store',
    store,
  ]);
  assert.is(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.not.ok(result.omitted.includes('authorization'));
  const replayed = await fetchProfileJson(serve.base, result.token);
  assert.ok(
    replayed.collectors.request.redacted.includes('header authorization'),
    'the server got an Authorization header (and redacted it)',
  );
});

test('when --query supplies the redacted query value, then it is sent (the other pairs as recorded) and no longer reported; the hint names --query', async () => {
  const plain = await runAppInProcess(['replay', token, '--store', store]);
  assert.match(
    plain.stderr,
    /^Left out \(redacted when recorded\): authorization, cookie, query password\. Send headers with --header "Name: value", query parameters with --query "name=value"\.$/m,
  );
  const r = await runAppInProcess(['replay', token, '--json', '--query', 'password=again', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const result = JSON.parse(r.stdout);
  assert.is(result.url, `${serve.base}/hello/ann?page=2&password=again`);
  assert.equal([...result.omitted].sort(), ['authorization', 'cookie']);
  const replayed = await fetchProfileJson(serve.base, result.token);
  assert.ok(
    replayed.collectors.request.redacted.includes('query password'),
    'the server got a password (and redacted it)',
  );
  const bad = await runAppInProcess(['replay', token, '--query', 'password', '--store', store]);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /^app: Invalid query parameter "password": expected "name=value"\.$/m);
});

test('when the request is exported as curl, then no placeholder is in the command and a comment names what was left out', async () => {
  const r = await runAppInProcess(['profiles', 'export', token, '--curl', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const [comment, command] = r.stdout.trim().split('\n');
  assert.match(comment, /^# left out \(redacted when recorded\): .*authorization.*query password/);
  assert.not.ok(command.includes('REDACTED'), command);
  assert.ok(command.includes(`'${serve.base}/hello/ann?page=2'`), command);
});

test.run();
