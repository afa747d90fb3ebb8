import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { fetchProfileJson, fetchText } from '../helpers/serve.js';
import { cliOutputs, leaks, profilerPages, SECRETS_APP, storeContents, storedProfiles, uniqueSecret } from './secrets-harness.js';

const QUERY_NAMES = ['password', 'passwd', 'pwd', 'secret', 'client_secret', 'token', 'access_token', 'refresh_token', 'id_token',
  'api_key', 'apikey', 'apiKey', 'key', 'auth', 'session', 'sid', 'signature', 'sig', 'jwt', 'otp', 'pin', 'csrf_token', 'user[password]'];
const HEADER_NAMES = ['x-api-key', 'x-auth-token', 'x-access-token', 'x-csrf-token', 'x-xsrf-token', 'api-key', 'private-token',
  'x-amz-security-token', 'x-goog-api-key', 'x-session-id', 'x-hub-signature'];
const FORM_NAMES = ['password', 'passwd', 'pwd', 'secret', 'client_secret', 'token', 'access_token', 'refresh_token', 'api_key', 'apikey',
  '_token', 'new_password', 'password_confirmation', 'user[password]', 'credentials'];
const COOKIE_NAMES = ['PHPSESSID', 'sessionid', 'session_id', 'connect.sid', 'remember_me', 'XSRF-TOKEN', 'prefs'];

/** label -> unique value; every one of them must stay out of the store, the pages and the outputs. */
const secrets: Record<string, string> = {};
const secret = (label: string) => (secrets[label] ??= uniqueSecret(label));

const test = suite('redaction corpus: no secret value sent in a header, cookie, query, form or response reaches the store, a page or an output');
let dir: string;
let store: string;
let serve: ServeProcess;
const tokens: string[] = [];

async function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<void> {
  const r = await fetchText(`${serve.base}${path}`, init);
  const token = r.headers['x-debug-token'];
  assert.match(token ?? '', /^[0-9a-f]{6}$/, `${init.method ?? 'GET'} ${path} answered ${r.status}`);
  await fetchProfileJson(serve.base, token);
  tokens.push(token);
}

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'appkernel-redaction-'));
  store = join(dir, 'store');
  writeFileSync(join(dir, 'app.config.mjs'), SECRETS_APP);
  serve = await startServe(['--store', store, '--no-watch', '--log-level', 'DEBUG'], { cwd: dir });

  const query = QUERY_NAMES.map((name) => `${encodeURIComponent(name)}=${secret(`query ${name}`)}`).join('&');
  const headers: Record<string, string> = {
    authorization: `Bearer ${secret('header authorization')}`,
    'proxy-authorization': `Basic ${secret('header proxy-authorization')}`,
    cookie: COOKIE_NAMES.map((name) => `${name}=${secret(`cookie ${name}`)}`).join('; '),
  };
  for (const name of HEADER_NAMES) headers[name] = secret(`header ${name}`);
  await send(`/accept?${query}&page=2`, { headers });

  const form = FORM_NAMES.map((name) => `${encodeURIComponent(name)}=${secret(`form ${name}`)}`).join('&');
  await send('/accept', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `${form}&name=bob` });

  const json = { password: secret('json password'), user: { api_key: secret('json user.api_key'), name: 'bob' }, tokens: [{ refresh_token: secret('json tokens[0].refresh_token') }] };
  await send('/accept', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });

  const boundary = 'hardeningBoundary42';
  const multipart = ['password', 'client_secret'].map((name) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${secret(`multipart ${name}`)}\r\n`).join('') + `--${boundary}--\r\n`;
  await send('/accept', { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: multipart });

  await send('/respond', { headers: { 'x-give-cookie': `session=${secret('response set-cookie')}; HttpOnly`, 'x-give-token': secret('response x-auth-token') } });
  await send('/go', { headers: { 'x-give-location': `http://elsewhere.test/callback?state=1&access_token=${secret('response location access_token')}` } });
  await send('/nowhere', { headers: { referer: `http://elsewhere.test/reset?token=${secret('referer token (404)')}&step=2` } });
  await send('/accept', { headers: { referer: `http://elsewhere.test/login?password=${secret('referer password (200)')}` } });
  await send(`/fail?id=7&api_key=${secret('query api_key (500)')}`);
  await send(`/accept?${encodeURIComponent('Password')}=${secret('query Password (mixed case)')}&${encodeURIComponent('pass word')}=${secret('query "pass word"')}`);
});

test.after(async () => {
  await serve?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('when every secret was sent, then the corpus covers at least 60 distinct names', () => {
  assert.ok(Object.keys(secrets).length >= 60, `${Object.keys(secrets).length} secrets`);
});

test('when every file of the store is read, raw and decompressed record by record, then no secret value is in it', async () => {
  const contents = storeContents(store);
  assert.ok(contents.some((c) => c.name.includes('.log@')), 'records were decompressed');
  assert.ok(contents.some((c) => c.text.includes('[REDACTED]')), 'the records hold redacted values');
  assert.equal(leaks(secrets, contents), []);
});

test('when every profile is read back through the storage API, then no secret value is in it', async () => {
  const profiles = await storedProfiles(store);
  assert.ok(profiles.length >= tokens.length);
  assert.equal(leaks(secrets, profiles), []);
});

test('when every panel, JSON view and the search list are fetched, then no secret value is in them', async () => {
  assert.equal(leaks(secrets, await profilerPages(serve.base, tokens)), []);
});

test('when app profiles list, show (JSON, text, HTML) and export print the store, then no secret value is in the output', async () => {
  assert.equal(leaks(secrets, await cliOutputs(store, tokens)), []);
});

test('when app serve printed its request log and log records, then no secret value is in it', () => {
  assert.match(serve.output(), /GET \/accept/);
  assert.equal(leaks(secrets, [{ name: 'app serve output', text: serve.output() }]), []);
});

test.run();
