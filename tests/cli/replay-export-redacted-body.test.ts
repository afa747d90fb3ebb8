import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { startCountingServer, type CountingServer } from '../helpers/counting-server.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

// A redacted field replaces that value only, in the stored body, the curl and HAR exports and
// replay; plain replay refuses (exit 1, naming --data) to send a body it knows is incomplete; the HAR carries the
// response preview.

const test = suite(
  "a redacted body field keeps the body's shape: stored, exported, replayed only when told (real servers)",
);
let dir: string;
let store: string;
let serve: TestServer;
let counting: CountingServer;
let json: string;
let form: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-redacted-body-'));
  store = join(dir, 'store');
  [serve, counting] = await Promise.all([serveForTest({ store: store, root: dir }), startCountingServer()]);
  json = (
    await fetchText(`${serve.base}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"user":"a","password":"x"}',
    })
  ).headers['x-debug-token'];
  form = (
    await fetchText(`${serve.base}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=a&password=x',
    })
  ).headers['x-debug-token'];
  for (const token of [json, form]) await fetchProfileJson(serve.base, token);
});

test.after(async () => {
  await Promise.all([serve.stop(), counting.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

test("when a JSON body with a password is stored, then only the password's value is replaced", async () => {
  const profile = await fetchProfileJson(serve.base, json);
  assert.is(profile.collectors.request.body.text, '{"user":"a","password":"[REDACTED]"}');
});

test('when it is exported as curl, then the body is sent with the other fields as recorded and the comment says which value is a placeholder', async () => {
  const r = await runAppInProcess(['profiles', 'export', json, '--curl', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const [comment, command] = r.stdout.trim().split('\n');
  assert.match(comment, /^# body incomplete: password redacted when recorded, left as \[REDACTED\]/);
  assert.ok(command.endsWith(` --data-raw '{"user":"a","password":"[REDACTED]"}'`), command);
  const urlEncoded = await runAppInProcess(['profiles', 'export', form, '--curl', '--store', store]);
  assert.ok(urlEncoded.stdout.trim().endsWith(` --data-raw 'user=a&password=[REDACTED]'`), urlEncoded.stdout);
});

test("when it is exported as HAR, then postData keeps the body's shape and response.content carries the stored preview", async () => {
  const r = await runAppInProcess(['profiles', 'export', json, '--har', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  const entry = JSON.parse(r.stdout).log.entries[0];
  assert.equal(entry.request.postData, { mimeType: 'application/json', text: '{"user":"a","password":"[REDACTED]"}' });
  assert.match(entry.comment, /body incomplete: password redacted when recorded/);
  const answer = JSON.stringify({ received: Buffer.byteLength('{"user":"a","password":"x"}') });
  assert.is(entry.response.content.text, answer);
  assert.is(entry.response.content.size, answer.length);
  assert.match(entry.response.content.mimeType, /^application\/json/);
});

test('when plain replay meets the redacted body, then it sends nothing, exits 1 and names --data and --send-incomplete', async () => {
  const r = await runApp(['replay', json, '--target', counting.base, '--store', store]);
  assert.is(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /^app: Not sent: the recorded body of POST .*\/contact is incomplete \(password redacted when recorded, left as \[REDACTED\]\)\. Give the body to send with --data or --data-file, or send the stored one as it is with --send-incomplete\.$/m,
  );
  assert.is(r.stdout, '');
  assert.is(counting.received.length, 0, 'nothing reached the server');
});

test('when told with --send-incomplete, then the stored body goes as it is (the other fields as recorded) and stderr says so', async () => {
  const r = await runAppInProcess(['replay', json, '--send-incomplete', '--json', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, /^Incomplete request: the stored body was sent as it is, password redacted when recorded/m);
  const result = JSON.parse(r.stdout);
  assert.is(result.status, 200);
  assert.match(result.bodyIncomplete, /password/);
  const replayed = await fetchProfileJson(serve.base, result.token);
  assert.is(replayed.collectors.request.body.text, '{"user":"a","password":"[REDACTED]"}');
  assert.is(replayed.collectors.request.body.size, Buffer.byteLength('{"user":"a","password":"[REDACTED]"}'));
});

test('when --data gives the body, then it is sent without a word about the recorded one', async () => {
  const r = await runAppInProcess([
    'replay',
    json,
    '--data',
    '{"user":"a","password":"y"}',
    '--json',
    '--store',
    store,
  ]);
  assert.is(r.code, 0, r.stderr);
  assert.not.match(r.stderr, /Incomplete/);
  const result = JSON.parse(r.stdout);
  assert.is(result.bodyIncomplete, null);
  assert.is(
    (await fetchProfileJson(serve.base, result.token)).collectors.request.body.size,
    Buffer.byteLength('{"user":"a","password":"y"}'),
  );
});

test.run();
