import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BODY_CAP } from '../../core/profiler/request-collector.js';
import { runApp, runAppInProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText, serveForTest, type TestServer } from '../helpers/serve.js';

// Required: `app profiles export <token> --curl | --har`: "the recorded request ... (redacted values left out
// and said so)"; `app replay`: "Redacted values are never sent as placeholders: the header is left out, the
// user is told". replay-redacted.test.ts covers curl and replay for redacted values; here the HAR entry, and a
// body the profile kept only the first BODY_CAP bytes of: sending that prefix as the body is not the recorded
// request either, so replay refuses it unless told (--send-incomplete), as for a redacted body value.

const test = suite('app profiles export --har and app replay tell what they could not reproduce');
let dir: string;
let store: string;
let serve: TestServer;
let redactedToken: string;
let bigToken: string;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-export-incomplete-'));
  store = join(dir, 'store');
  serve = await serveForTest({ store: store, root: dir });
  const r = await fetchText(`${serve.base}/hello/ann?password=hunter2&page=2`, {
    headers: { authorization: 'Bearer s3cret', 'x-trace-id': 't1' },
  });
  redactedToken = r.headers['x-debug-token'];
  await fetchProfileJson(serve.base, redactedToken);
  const big = await fetchText(`${serve.base}/contact`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'b'.repeat(BODY_CAP * 3),
  });
  bigToken = big.headers['x-debug-token'];
  await fetchProfileJson(serve.base, bigToken);
});

test.after(async () => {
  await serve.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("when a request with secrets is exported as HAR, then no placeholder is in it, the other values are, and the entry's comment names what was left out", async () => {
  const r = await runApp(['profiles', 'export', redactedToken, '--har', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.not.ok(r.stdout.includes('REDACTED'), 'no placeholder in the HAR');
  const entry = JSON.parse(r.stdout).log.entries[0];
  assert.is(entry.request.url, `${serve.base}/hello/ann?page=2`);
  assert.equal(entry.request.queryString, [{ name: 'page', value: '2' }]);
  const headers = Object.fromEntries(
    entry.request.headers.map((h: { name: string; value: string }) => [h.name.toLowerCase(), h.value]),
  );
  assert.is(headers['x-trace-id'], 't1');
  assert.is(headers.authorization, undefined);
  assert.match(entry.comment, /left out \(redacted when recorded\): .*authorization/);
  assert.match(entry.comment, /query password/);
});

test('when the recorded body was cut at the cap, then plain replay sends nothing and exits 1; with --send-incomplete it sends the cut body and says so', async () => {
  const refused = await runAppInProcess(['replay', bigToken, '--json', '--store', store]);
  assert.is(refused.code, 1, refused.stderr);
  assert.match(
    refused.stderr,
    new RegExp(
      `^app: Not sent: .* is incomplete \\(cut when recorded: only its first ${BODY_CAP} of ${BODY_CAP * 3} bytes kept\\)\\. .*--data.*--send-incomplete`,
      'm',
    ),
  );
  const r = await runAppInProcess(['replay', bigToken, '--json', '--send-incomplete', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, /^Incomplete request: the stored body was sent as it is, cut when recorded/m);
  assert.is(JSON.parse(r.stdout).bodyTruncated, true);
});

test('when the recorded body was cut at the cap, then the curl export says so in its comment line', async () => {
  const r = await runAppInProcess(['profiles', 'export', bigToken, '--curl', '--store', store]);
  assert.is(r.code, 0, r.stderr);
  assert.match(
    r.stdout.split('\n')[0],
    /^#.*(truncated|cut|incomplete)/i,
    `no comment about the body:\n${r.stdout.slice(0, 200)}`,
  );
});

test.run();
